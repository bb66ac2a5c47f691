import type { Database } from "bun:sqlite";
import { type CollectionRowRaw, type DocRowRaw, toCollectionSummary, toDocumentRow } from "../corpus-rows.ts";
import { denseBigrams } from "../dense-bigrams.ts";
import type { CorpusPassage, CorpusPutOutcome, CorpusTable } from "../types.ts";

/** A document row's columns, as corpus-rows.ts maps them. */
export const DOC_COLUMNS = `d.id, c.name AS collection, d.doc_id, d.title, d.url, d.path, d.format, d.chars, d.truncated, d.added_at`;

/**
 * An FTS5 MATCH expression from plain words: each one quoted (so no word is read as
 * syntax: "NOT", "near", a stray quote), joined with OR. Null when no word is left.
 */
export function ftsMatch(query: string[]): string | null {
  const words = [...new Set(query.map((w) => w.replace(/"/g, "").trim()).filter(Boolean))];
  return words.length ? words.map((w) => `"${w}"`).join(" OR ") : null;
}

/**
 * The collection tables (corpus_*) and their full-text indexes (db/0006_corpus_fts.sql).
 * `changed` is told of every write of documents, so the index's version follows (corpus-index-reads.ts).
 */
export function sqliteCorpus(db: Database, changed: () => void): CorpusTable {
  const collectionId = db.prepare<{ id: number }, [string]>("SELECT id FROM corpus_collections WHERE name = ?");
  const addCollection = db.prepare(
    "INSERT INTO corpus_collections (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
  );
  const existing = db.prepare<{ id: number; content_hash: string }, [number, string]>(
    "SELECT id, content_hash FROM corpus_documents WHERE collection_id = ? AND doc_id = ?",
  );
  const deleteDoc = db.prepare("DELETE FROM corpus_documents WHERE id = ?");
  const insertDoc = db.prepare<
    { id: number },
    [number, string, string, string | null, string | null, string, string, number, number, string]
  >(
    `INSERT INTO corpus_documents (collection_id, doc_id, title, url, path, format, content_hash, chars, truncated, added_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const insertPassage = db.prepare("INSERT INTO corpus_passages (document_id, seq, text) VALUES (?, ?, ?)");
  const indexDoc = db.prepare("INSERT INTO corpus_docs_fts (rowid, title, body) VALUES (?, ?, ?)");

  const put = db.transaction((collection: string, docs: Parameters<CorpusTable["put"]>[1]): CorpusPutOutcome[] => {
    const now = new Date().toISOString();
    addCollection.run(collection, now);
    const cid = collectionId.get(collection)!.id;
    return docs.map((d) => {
      const old = existing.get(cid, d.docId);
      if (old && old.content_hash === d.contentHash) return "unchanged";
      if (old) deleteDoc.run(old.id);
      const chars = d.passages.reduce((n, p) => n + p.length, 0);
      const { id } = insertDoc.get(
        cid,
        d.docId,
        d.title,
        d.url,
        d.path,
        d.format,
        d.contentHash,
        chars,
        d.truncated ? 1 : 0,
        now,
      )!;
      for (const [i, p] of d.passages.entries()) insertPassage.run(id, i, p);
      indexDoc.run(id, denseBigrams(d.title), denseBigrams(d.passages.join("\n")));
      return old ? "replaced" : "added";
    });
  });

  const summaries = db.prepare<CollectionRowRaw, []>(
    `SELECT c.name, c.created_at,
       (SELECT count(*) FROM corpus_documents d WHERE d.collection_id = c.id) AS documents,
       (SELECT count(*) FROM corpus_passages p JOIN corpus_documents d ON d.id = p.document_id WHERE d.collection_id = c.id) AS passages,
       (SELECT coalesce(sum(chars), 0) FROM corpus_documents d WHERE d.collection_id = c.id) AS chars,
       (SELECT max(added_at) FROM corpus_documents d WHERE d.collection_id = c.id) AS updated_at
     FROM corpus_collections c ORDER BY c.name`,
  );
  const documents = db.prepare<DocRowRaw, [string]>(
    `SELECT ${DOC_COLUMNS} FROM corpus_documents d JOIN corpus_collections c ON c.id = d.collection_id
     WHERE c.name = ? ORDER BY d.doc_id`,
  );
  const removeCollection = db.prepare("DELETE FROM corpus_collections WHERE id = ?");
  const countDocs = db.prepare<{ n: number }, [number]>(
    "SELECT count(*) AS n FROM corpus_documents WHERE collection_id = ?",
  );
  const removeDoc = db.prepare("DELETE FROM corpus_documents WHERE collection_id = ? AND doc_id = ?");
  const anyDoc = db.prepare<{ one: number }, []>("SELECT 1 AS one FROM corpus_documents LIMIT 1");
  const firstPassages = db.prepare<CorpusPassage, [number, number]>(
    "SELECT seq, text FROM corpus_passages WHERE document_id = ? ORDER BY seq LIMIT ?",
  );
  const matchingPassages = db.prepare<CorpusPassage, [string, number, number]>(
    `SELECT seq, text FROM (
       SELECT p.seq, p.text FROM corpus_passages_fts f JOIN corpus_passages p ON p.id = f.rowid
       WHERE corpus_passages_fts MATCH ? AND p.document_id = ? ORDER BY f.rank LIMIT ?
     ) ORDER BY seq`,
  );

  // Every write of documents goes through one of these, so the index's version changes and rankers read it again.
  const writing =
    <A extends unknown[], R>(fn: (...a: A) => R) =>
    (...a: A): R => {
      try {
        return fn(...a);
      } finally {
        changed();
      }
    };

  return {
    put: writing((collection: string, docs: Parameters<CorpusTable["put"]>[1]) => put.immediate(collection, docs)),
    collections: () => summaries.all().map(toCollectionSummary),
    documents: (collection) => documents.all(collection).map(toDocumentRow),
    removeCollection: writing((name: string) =>
      db
        .transaction(() => {
          const c = collectionId.get(name);
          if (!c) return null;
          const n = countDocs.get(c.id)!.n;
          removeCollection.run(c.id);
          return n;
        })
        .immediate(),
    ),
    removeDocuments: writing((collection: string, docIds: string[]) =>
      db
        .transaction(() => {
          const c = collectionId.get(collection);
          if (!c) return 0;
          return docIds.reduce((n, id) => n + removeDoc.run(c.id, id).changes, 0);
        })
        .immediate(),
    ),
    hasDocuments: () => anyDoc.get() !== null,
    bestPassages(documentId, words, limit) {
      const match = ftsMatch(words);
      const hits = match ? matchingPassages.all(match, documentId, limit) : [];
      return hits.length ? hits : firstPassages.all(documentId, limit);
    },
  };
}
