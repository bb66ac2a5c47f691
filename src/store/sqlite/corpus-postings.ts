import type { Database } from "bun:sqlite";
import { denseBigrams } from "../dense-bigrams.ts";

/**
 * The collections' tokenizer, as db/0006_corpus_fts.sql declared it for the index that
 * corpus_postings replaced: documents and queries (corpus-analyzer.ts) are split by it alike.
 */
export const INDEX_TOKENIZER = "'porter unicode61 remove_diacritics 2'";

/** Documents' text as the index got it: the title, and the passages joined by lines. */
export const STORED_TEXT = `SELECT d.id, d.title, coalesce((SELECT group_concat(p.text, char(10) ORDER BY p.seq)
  FROM corpus_passages p WHERE p.document_id = d.id), '') AS body FROM corpus_documents d`;

/**
 * Writes documents' index (db/0012_corpus_postings.sql): each term's count in the title and the
 * body as rows of corpus_postings, and the fields' lengths on the document's row. The text is
 * split once, by a contentless FTS5 table of the connection's temp schema with the index's
 * tokenizer: terms read back through fts5vocab, lengths from its docsize (the tokens per column,
 * as FTS5 counts them). Documents are staged with `add` and written together by `flush`,
 * inside the caller's transaction. The rows have no index by document (it cost an import
 * nearly a third of its time, and the database half its size): `remove` finds a document's
 * rows by splitting its stored text again, and a collection's go by its range (a trigger,
 * db/0012_corpus_postings.sql).
 */
export function postingsWriter(db: Database) {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_postings_in USING fts5(title, body, content='', tokenize=${INDEX_TOKENIZER})`,
  );
  db.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_postings_in_terms USING fts5vocab(temp, corpus_postings_in, 'instance')",
  );
  const stage = db.prepare<never, [number, string, string]>(
    "INSERT INTO temp.corpus_postings_in (rowid, title, body) VALUES (?, ?, ?)",
  );
  // The collection comes with the batch (a put writes one): no lookup of it per token.
  const write = db.prepare<never, [number]>(
    `INSERT INTO corpus_postings (collection_id, term, document_id, title_tf, body_tf)
     SELECT ?, term, doc, sum(col = 'title'), sum(col = 'body') FROM temp.corpus_postings_in_terms
     GROUP BY term, doc`,
  );
  const sizes = db.prepare<unknown, []>("SELECT id, sz FROM temp.corpus_postings_in_docsize");
  const setLengths = db.prepare<never, [number, number, number]>(
    "UPDATE corpus_documents SET title_len = ?, body_len = ? WHERE id = ?",
  );
  // A contentless table's whole index at once, rather than a tombstone per document.
  const clear = db.prepare("INSERT INTO temp.corpus_postings_in (corpus_postings_in) VALUES ('delete-all')");
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_postings_out USING fts5(title, body, content='', tokenize=${INDEX_TOKENIZER})`,
  );
  db.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_postings_out_terms USING fts5vocab(temp, corpus_postings_out, 'row')",
  );
  const stored = db.prepare<{ title: string; body: string }, [number]>(`${STORED_TEXT} WHERE d.id = ?`);
  const stageOut = db.prepare<never, [string, string]>(
    "INSERT INTO temp.corpus_postings_out (rowid, title, body) VALUES (1, ?, ?)",
  );
  // One lookup of the primary key per term of the document.
  const drop = db.prepare<never, [number, number]>(
    `DELETE FROM corpus_postings WHERE collection_id = ?1
     AND term IN (SELECT term FROM temp.corpus_postings_out_terms) AND document_id = ?2`,
  );
  const clearOut = db.prepare("INSERT INTO temp.corpus_postings_out (corpus_postings_out) VALUES ('delete-all')");
  let staged = 0;
  return {
    /** Stages a document already in corpus_documents, its title and body as the index gets them. */
    add(id: number, title: string, body: string): void {
      stage.run(id, denseBigrams(title), denseBigrams(body));
      staged++;
    },
    /** Deletes the rows of a document of collection `cid`; called before the document itself is deleted or changed. */
    remove(cid: number, id: number): void {
      const d = stored.get(id);
      if (!d) return;
      stageOut.run(denseBigrams(d.title), denseBigrams(d.body));
      drop.run(cid, id);
      clearOut.run();
    },
    /** Writes the staged documents' rows, all of collection `cid`, and empties the stage. */
    flush(cid: number): void {
      if (!staged) return;
      write.run(cid);
      for (const [id, sz] of sizes.values() as [number, Uint8Array][]) {
        const [title = 0, body = 0] = varints(sz);
        setLengths.run(title, body, id);
      }
      clear.run();
      staged = 0;
    },
  };
}

/** SQLite's big-endian varints, as FTS5 writes them in the docsize table (one per column). */
function varints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let v = 0;
  for (const x of bytes) {
    v = v * 128 + (x & 0x7f);
    if (!(x & 0x80)) {
      out.push(v);
      v = 0;
    }
  }
  return out;
}
