import type { Database } from "bun:sqlite";
import {
  COLLECTION_REF_SELECT,
  COLLECTION_SELECT,
  type CollectionRefRaw,
  type CollectionRowRaw,
  type DocRowRaw,
  passageBytes,
  toCollectionRef,
  toCollectionSummary,
  toDocumentRow,
} from "../corpus-rows.ts";
import type { AuditNote, CollectionReader, CorpusPassage, CorpusPutOutcome, CorpusTable } from "../types.ts";
import { postingsWriter } from "./corpus-postings.ts";

/** A document row's columns, as corpus-rows.ts maps them. */
export const DOC_COLUMNS = `d.id, d.collection_id, c.name AS collection,
  (SELECT a.email FROM accounts a WHERE a.id = c.owner_id) AS owner, d.doc_id, d.title, d.url, d.path, d.format, d.chars,
  d.truncated, d.added_at`;

/**
 * An FTS5 MATCH expression from plain words: each one quoted (so no word is read as
 * syntax: "NOT", "near", a stray quote), joined with OR. Null when no word is left.
 */
export function ftsMatch(query: string[]): string | null {
  const words = [...new Set(query.map((w) => w.replace(/"/g, "").trim()).filter(Boolean))];
  return words.length ? words.map((w) => `"${w}"`).join(" OR ") : null;
}

/**
 * The collection tables (corpus_*), their postings (corpus-postings.ts) and the passages'
 * full-text index (db/0006_corpus_fts.sql).
 * `changed` is told of every write of documents, so the index's version follows (corpus-index-reads.ts).
 */
export function sqliteCorpus(db: Database, changed: () => void, audit: (note: AuditNote) => void): CorpusTable {
  const collectionExists = db.prepare<{ id: number }, [number]>("SELECT id FROM corpus_collections WHERE id = ?");
  const addCollection = db.prepare<{ id: number }, [string, string | null, string, string]>(
    `INSERT INTO corpus_collections (name, owner_id, visibility, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT DO NOTHING RETURNING id`,
  );
  const summaryOf = db.prepare<CollectionRowRaw, [number]>(`${COLLECTION_SELECT} WHERE c.id = ?`);
  const summaries = db.prepare<CollectionRowRaw, [number, string]>(
    `${COLLECTION_SELECT} WHERE ? OR c.visibility = 'shared' OR c.owner_id IN (SELECT value FROM json_each(?))
     ORDER BY c.name, a.email`,
  );
  const byOwnerName = db.prepare<CollectionRowRaw, [string, string]>(
    `${COLLECTION_SELECT} WHERE coalesce(c.owner_id, '') = ? AND c.name = ?`,
  );
  const refByOwnerName = db.prepare<CollectionRefRaw, [string, string]>(
    `${COLLECTION_REF_SELECT} WHERE coalesce(c.owner_id, '') = ? AND c.name = ?`,
  );
  const sharedByName = db.prepare<CollectionRefRaw, [string]>(
    `${COLLECTION_REF_SELECT} WHERE c.name = ? AND c.visibility = 'shared' ORDER BY a.email`,
  );
  const readableIds = db.prepare<{ id: number }, [number, string]>(
    `SELECT id FROM corpus_collections c
     WHERE ? OR c.visibility = 'shared' OR c.owner_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  );
  const readerArgs = (r: CollectionReader): [number, string] =>
    r === "all" ? [1, "[]"] : [0, JSON.stringify(r.accounts)];
  const nameTaken = db.prepare<{ id: number }, [string, string, number]>(
    "SELECT id FROM corpus_collections WHERE coalesce(owner_id, '') = ? AND name = ? AND id <> ?",
  );
  const current = db.prepare<{ name: string; owner_id: string | null; visibility: string }, [number]>(
    "SELECT name, owner_id, visibility FROM corpus_collections WHERE id = ?",
  );
  const changeCollection = db.prepare(
    "UPDATE corpus_collections SET name = ?, owner_id = ?, visibility = ? WHERE id = ?",
  );
  const existing = db.prepare<{ id: number; content_hash: string }, [number, string]>(
    "SELECT id, content_hash FROM corpus_documents WHERE collection_id = ? AND doc_id = ?",
  );
  const deleteDoc = db.prepare("DELETE FROM corpus_documents WHERE id = ?");
  const insertDoc = db.prepare<
    { id: number },
    [number, string, string, string | null, string | null, string, string, number, number, string, number]
  >(
    `INSERT INTO corpus_documents (collection_id, doc_id, title, url, path, format, content_hash, chars, truncated, added_at, bytes)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const insertPassage = db.prepare("INSERT INTO corpus_passages (document_id, seq, text) VALUES (?, ?, ?)");
  // Made at the first write: a search thread's read-only connection never writes.
  let writer: ReturnType<typeof postingsWriter> | null = null;
  const postingsOf = () => {
    writer ??= postingsWriter(db);
    return writer;
  };

  const put = db.transaction((cid: number, docs: Parameters<CorpusTable["put"]>[1]): CorpusPutOutcome[] => {
    const now = new Date().toISOString();
    if (!collectionExists.get(cid)) throw new Error("the collection was removed");
    const postings = postingsOf();
    const outcomes = docs.map((d) => {
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
        passageBytes(d.passages),
      )!;
      for (const [i, p] of d.passages.entries()) insertPassage.run(id, i, p);
      postings.add(id, d.title, d.passages.join("\n"));
      return old ? "replaced" : "added";
    });
    postings.flush(cid);
    return outcomes;
  });

  const documents = db.prepare<DocRowRaw, [number]>(
    `SELECT ${DOC_COLUMNS} FROM corpus_documents d JOIN corpus_collections c ON c.id = d.collection_id
     WHERE c.id = ? ORDER BY d.doc_id`,
  );
  const namedDocuments = db.prepare<DocRowRaw, [number, string]>(
    `SELECT ${DOC_COLUMNS} FROM corpus_documents d JOIN corpus_collections c ON c.id = d.collection_id
     WHERE c.id = ? AND d.doc_id IN (SELECT value FROM json_each(?)) ORDER BY d.doc_id`,
  );
  const documentIds = db.prepare<{ doc_id: string }, [number, string, number]>(
    `SELECT doc_id FROM (SELECT doc_id FROM corpus_documents WHERE collection_id = ?1 AND doc_id >= ?2 ORDER BY doc_id LIMIT ?3)
     UNION SELECT doc_id FROM (SELECT DISTINCT doc_id FROM corpus_uploads WHERE collection_id = ?1 AND doc_id >= ?2 ORDER BY doc_id LIMIT ?3)
     ORDER BY doc_id LIMIT ?3`,
  );
  const oneDocument = db.prepare<DocRowRaw, [number, string]>(
    `SELECT ${DOC_COLUMNS} FROM corpus_documents d JOIN corpus_collections c ON c.id = d.collection_id
     WHERE c.id = ? AND d.doc_id = ?`,
  );
  const removeCollection = db.prepare("DELETE FROM corpus_collections WHERE id = ?");
  const countDocs = db.prepare<{ n: number }, [number]>(
    "SELECT count(*) AS n FROM corpus_documents WHERE collection_id = ?",
  );
  const removeDoc = db.prepare("DELETE FROM corpus_documents WHERE collection_id = ? AND doc_id = ?");
  const anyDoc = db.prepare<{ one: number }, [string]>(
    "SELECT 1 AS one FROM corpus_documents WHERE collection_id IN (SELECT value FROM json_each(?)) LIMIT 1",
  );
  const firstPassages = db.prepare<CorpusPassage, [number, number]>(
    "SELECT seq, text FROM corpus_passages WHERE document_id = ? ORDER BY seq LIMIT ?",
  );
  // The rowid range keeps FTS5 to the document's passages (written together, so their ids are
  // adjacent): matched over the whole index first, a question of common words took ~0.5 s a document.
  const matchingPassages = db.prepare<CorpusPassage, [string, number, number]>(
    `SELECT seq, text FROM (
       SELECT p.seq, p.text FROM corpus_passages_fts f JOIN corpus_passages p ON p.id = f.rowid
       WHERE corpus_passages_fts MATCH ?1
         AND f.rowid BETWEEN (SELECT min(id) FROM corpus_passages WHERE document_id = ?2)
           AND (SELECT max(id) FROM corpus_passages WHERE document_id = ?2)
         AND p.document_id = ?2 ORDER BY f.rank LIMIT ?3
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
    createCollection: (c, note) =>
      db.transaction(() => {
        const row = addCollection.get(c.name, c.ownerId, c.visibility, new Date().toISOString());
        if (row && note) audit(note);
        return row ? toCollectionSummary(summaryOf.get(row.id)!) : null;
      })(),
    collections: (reader) => summaries.all(...readerArgs(reader)).map(toCollectionSummary),
    findCollection(ownerId, name) {
      const row = byOwnerName.get(ownerId ?? "", name);
      return row ? toCollectionSummary(row) : null;
    },
    collectionRef(ownerId, name) {
      const row = refByOwnerName.get(ownerId ?? "", name);
      return row ? toCollectionRef(row) : null;
    },
    sharedRefs: (name) => sharedByName.all(name).map(toCollectionRef),
    readable: (reader) => readableIds.all(...readerArgs(reader)).map((r) => r.id),
    updateCollection: writing((id: number, change: Parameters<CorpusTable["updateCollection"]>[1], note?: AuditNote) =>
      db
        .transaction(() => {
          const c = current.get(id);
          if (!c) return "missing" as const;
          const name = change.name ?? c.name;
          const owner = change.ownerId === undefined ? c.owner_id : change.ownerId;
          if (nameTaken.get(owner ?? "", name, id)) return "taken" as const;
          changeCollection.run(name, owner, change.visibility ?? c.visibility, id);
          if (note) audit(note);
          return "ok" as const;
        })
        .immediate(),
    ),
    put: writing((cid: number, docs: Parameters<CorpusTable["put"]>[1]) => put.immediate(cid, docs)),
    documents: (cid, docIds) =>
      (docIds ? namedDocuments.all(cid, JSON.stringify(docIds)) : documents.all(cid)).map(toDocumentRow),
    documentIds: (cid, from, limit) => documentIds.all(cid, from, limit).map((r) => r.doc_id),
    document(cid, docId) {
      const row = oneDocument.get(cid, docId);
      return row ? toDocumentRow(row) : null;
    },
    removeCollection: writing((id: number, note?: AuditNote) =>
      db
        .transaction(() => {
          if (!collectionExists.get(id)) return null;
          const n = countDocs.get(id)!.n;
          removeCollection.run(id);
          if (note) audit(note);
          return n;
        })
        .immediate(),
    ),
    removeDocuments: writing((cid: number, docIds: string[], note?: AuditNote) =>
      db
        .transaction(() => {
          const n = docIds.reduce((sum, id) => sum + removeDoc.run(cid, id).changes, 0);
          if (n > 0 && note) audit(note);
          return n;
        })
        .immediate(),
    ),
    hasDocuments: (ids) => ids.length > 0 && anyDoc.get(JSON.stringify(ids)) !== null,
    bestPassages(documentId, words, limit) {
      const match = ftsMatch(words);
      const hits = match ? matchingPassages.all(match, documentId, limit) : [];
      return hits.length ? hits : firstPassages.all(documentId, limit);
    },
  };
}
