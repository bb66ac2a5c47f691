import type { Database } from "bun:sqlite";
import { denseBigrams } from "../dense-bigrams.ts";
import { INDEX_TOKENIZER } from "./corpus-postings.ts";

/**
 * The index's own tokens of a text: a contentless FTS5 table in the connection's temp schema
 * with the index's tokenizer, read back through fts5vocab — so a query is split exactly as the
 * index split its documents.
 */
export function sqliteAnalyzer(db: Database) {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_analyze USING fts5(x, content='', contentless_delete=1, tokenize=${INDEX_TOKENIZER})`,
  );
  db.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_analyze_terms USING fts5vocab(temp, corpus_analyze, 'instance')",
  );
  const clear = db.prepare("DELETE FROM temp.corpus_analyze");
  const put = db.prepare<never, [number, string]>("INSERT INTO temp.corpus_analyze (rowid, x) VALUES (?, ?)");
  const ordered = db.prepare<unknown, []>("SELECT term FROM temp.corpus_analyze_terms ORDER BY offset");
  return {
    /** Distinct terms of a text, in order of first appearance. */
    terms(text: string): string[] {
      clear.run();
      put.run(1, denseBigrams(text));
      return [...new Set((ordered.values() as [string][]).map((r) => r[0]))];
    },
  };
}
