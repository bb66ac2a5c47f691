import type { Database } from "bun:sqlite";
import { denseBigrams } from "../dense-bigrams.ts";
import { tempTokenizer } from "./temp-tokenizer.ts";

/** Documents' text as the index got it: the title, and the passages joined by lines. */
export const STORED_TEXT = `SELECT d.id, d.title, coalesce((SELECT group_concat(p.text, char(10) ORDER BY p.seq)
  FROM corpus_passages p WHERE p.document_id = d.id), '') AS body FROM corpus_documents d`;

/** A term of collection `cid` as corpus_terms_fts holds it (db/0012_corpus_terms.sql). */
export const collectionTerm = (cid: number, term: string): string => `${cid}_${term}`;

/**
 * Writes documents' index (db/0012_corpus_terms.sql): each occurrence of a term in the title
 * and the body as `<collection>_<term>` in corpus_terms_fts, and the fields' lengths on the
 * document's row. The text is split once, by a contentless FTS5 table of the connection's temp
 * schema with the index's tokenizer: terms read back through fts5vocab, lengths from its
 * docsize (the tokens per column, as FTS5 counts them). Documents are staged with `add` and
 * written together by `flush`, inside the caller's transaction, so FTS5 writes the batch as
 * one segment. A document's terms are deleted with its row (a trigger).
 */
export function postingsWriter(db: Database) {
  tempTokenizer(db, "corpus_postings_in", ["title", "body"]);
  const stage = db.prepare<never, [number, string, string]>(
    "INSERT INTO temp.corpus_postings_in (rowid, title, body) VALUES (?, ?, ?)",
  );
  // One row per document: its occurrences per field, each prefixed by the collection (a put writes one).
  const write = db.prepare<never, [number]>(
    `INSERT INTO corpus_terms_fts (rowid, title, body)
     SELECT doc, group_concat(iif(col = 'title', ?1 || '_' || term, NULL), ' '),
       group_concat(iif(col = 'body', ?1 || '_' || term, NULL), ' ')
     FROM temp.corpus_postings_in_terms GROUP BY doc`,
  );
  const sizes = db.prepare<unknown, []>("SELECT id, sz FROM temp.corpus_postings_in_docsize");
  const setLengths = db.prepare<never, [number, number, number]>(
    "UPDATE corpus_documents SET title_len = ?, body_len = ? WHERE id = ?",
  );
  // A contentless table's whole index at once, rather than a tombstone per document.
  const clear = db.prepare("INSERT INTO temp.corpus_postings_in (corpus_postings_in) VALUES ('delete-all')");
  let staged = 0;
  return {
    /** Stages a document already in corpus_documents (and not in the index), its title and body as the index gets them. */
    add(id: number, title: string, body: string): void {
      stage.run(id, denseBigrams(title), denseBigrams(body));
      staged++;
    },
    /** Writes the staged documents' terms, all of collection `cid`, and empties the stage. */
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
export function varints(bytes: Uint8Array): number[] {
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
