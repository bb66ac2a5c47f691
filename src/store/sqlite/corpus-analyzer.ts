import type { Database } from "bun:sqlite";
import { denseBigrams } from "../dense-bigrams.ts";
import { tempTokenizer } from "./temp-tokenizer.ts";

/**
 * The index's own tokens of a text: a contentless FTS5 table in the connection's temp schema
 * with the index's tokenizer, read back through fts5vocab — so a query is split exactly as the
 * index split its documents (and a document's terms counted as its postings count them).
 */
export function sqliteAnalyzer(db: Database) {
  tempTokenizer(db, "corpus_analyze", ["x"], { deletes: true });
  const clear = db.prepare("DELETE FROM temp.corpus_analyze");
  const put = db.prepare<never, [number, string]>("INSERT INTO temp.corpus_analyze (rowid, x) VALUES (?, ?)");
  const ordered = db.prepare<unknown, []>("SELECT term FROM temp.corpus_analyze_terms ORDER BY offset");
  tempTokenizer(db, "corpus_analyze_docs", ["title", "body"]);
  const putDoc = db.prepare<never, [number, string, string]>(
    "INSERT INTO temp.corpus_analyze_docs (rowid, title, body) VALUES (?, ?, ?)",
  );
  const counts = db.prepare<unknown, []>(
    "SELECT doc, term, count(*) FROM temp.corpus_analyze_docs_terms GROUP BY doc, term",
  );
  const clearDocs = db.prepare("INSERT INTO temp.corpus_analyze_docs (corpus_analyze_docs) VALUES ('delete-all')");
  return {
    /** Distinct terms of a text, in order of first appearance. */
    terms(text: string): string[] {
      clear.run();
      put.run(1, denseBigrams(text));
      return [...new Set((ordered.values() as [string][]).map((r) => r[0]))];
    },
    /** Each document's terms with their counts, title and body together, as its index rows count them. */
    termCounts(docs: { id: number; title: string; body: string }[]): Map<number, Map<string, number>> {
      const out = new Map<number, Map<string, number>>(docs.map((d) => [d.id, new Map()]));
      for (const d of docs) putDoc.run(d.id, denseBigrams(d.title), denseBigrams(d.body));
      for (const [id, term, n] of counts.values() as [number, string, number][]) out.get(id)?.set(term, n);
      clearDocs.run();
      return out;
    },
  };
}
