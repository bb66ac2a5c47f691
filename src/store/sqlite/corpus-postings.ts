import type { Database } from "bun:sqlite";
import { denseBigrams } from "../dense-bigrams.ts";

/** The index's tokenizer, as corpus_docs_fts declares it, so both tables hold the same terms. */
export function indexTokenizer(db: Database): string {
  const sql = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'corpus_docs_fts'").get()!.sql;
  return sql.match(/tokenize\s*=\s*('(?:[^']|'')*')/)?.[1] ?? "'unicode61'";
}

/**
 * Writes documents' rows of corpus_postings (db/0012_corpus_postings.sql): each term's count
 * in the title and the body. The text is split by a contentless FTS5 table of the connection's
 * temp schema with the index's tokenizer and read back per document through fts5vocab, so the
 * terms are exactly those of corpus_docs_fts and of a query (corpus-analyzer.ts). Documents
 * are staged with `add` and written together by `flush`, inside the caller's transaction.
 */
export function postingsWriter(db: Database) {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_postings_in USING fts5(title, body, content='', contentless_delete=1, tokenize=${indexTokenizer(db)})`,
  );
  db.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_postings_in_terms USING fts5vocab(temp, corpus_postings_in, 'instance')",
  );
  const stage = db.prepare<never, [number, string, string]>(
    "INSERT INTO temp.corpus_postings_in (rowid, title, body) VALUES (?, ?, ?)",
  );
  const write = db.prepare(
    `INSERT INTO corpus_postings (collection_id, term, document_id, title_tf, body_tf)
     SELECT d.collection_id, v.term, v.doc, sum(v.col = 'title'), sum(v.col = 'body')
     FROM temp.corpus_postings_in_terms v JOIN corpus_documents d ON d.id = v.doc
     GROUP BY v.term, v.doc`,
  );
  const clear = db.prepare("DELETE FROM temp.corpus_postings_in");
  const drop = db.prepare<never, [number]>("DELETE FROM corpus_postings WHERE document_id = ?");
  let staged = 0;
  return {
    /** Stages a document already in corpus_documents, its title and body as the index gets them. */
    add(id: number, title: string, body: string): void {
      stage.run(id, denseBigrams(title), denseBigrams(body));
      staged++;
    },
    /** Forgets a document's rows before it is written again (its title changed). */
    drop(id: number): void {
      drop.run(id);
    },
    /** Writes the staged documents' rows and empties the stage. */
    flush(): void {
      if (!staged) return;
      write.run();
      clear.run();
      staged = 0;
    },
  };
}
