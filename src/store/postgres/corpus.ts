import type { SQL } from "bun";
import { type CollectionRowRaw, type DocRowRaw, toCollectionSummary, toDocumentRow } from "../corpus-rows.ts";
import type { CorpusPassage, CorpusPutOutcome, CorpusTable } from "../types.ts";
import { type DocumentInput, insertDocuments, queryTerms, touchCollection } from "./corpus-index.ts";

/** Document rows with their collection's name, as every read of them selects them. */
export const docsWhere = (db: SQL, where: SQL.Query<unknown>) =>
  db<DocRowRaw[]>`SELECT d.id, c.name AS collection, d.doc_id, d.title, d.url, d.path, d.format, d.chars, d.truncated,
    d.added_at FROM corpus_documents d JOIN corpus_collections c ON c.id = d.collection_id WHERE ${where}`;

/**
 * The collection tables (corpus_*). Each document and passage carries its own tsvector,
 * written with it (corpus-index.ts; no triggers to keep in step): deleting a row deletes
 * its index entry.
 */
export function pgCorpus(sql: SQL): CorpusTable {
  const collectionId = async (db: SQL, name: string) =>
    ((await db`SELECT id FROM corpus_collections WHERE name = ${name}`)[0]?.id as number | undefined) ?? null;
  // Writers of one collection queue here, whichever instance or CLI they run in, as they do on
  // SQLite's single writer: two imports of the same document can't both add it.
  const lockCollection = (tx: SQL, name: string) => tx`SELECT pg_advisory_xact_lock(hashtext(${`corpus:${name}`}))`;

  return {
    put: (collection, docs) =>
      sql.begin(async (tx) => {
        await lockCollection(tx, collection);
        const now = new Date().toISOString();
        await tx`INSERT INTO corpus_collections (name, created_at) VALUES (${collection}, ${now}) ON CONFLICT (name) DO NOTHING`;
        const cid = (await collectionId(tx, collection))!;
        const rows = await tx`SELECT doc_id, id, content_hash FROM corpus_documents
          WHERE collection_id = ${cid} AND doc_id = ANY(${docs.map((d) => d.docId)}::text[])`;
        const stored = new Map<string, { id: number; hash: string }>(
          rows.map((r: { doc_id: string; id: number; content_hash: string }) => [
            r.doc_id,
            { id: r.id, hash: r.content_hash },
          ]),
        );
        // Decided in order as SQLite's loop does: a doc_id met twice in the batch is written once, as last seen.
        const writes = new Map<string, DocumentInput>();
        const replaced: number[] = [];
        const out = docs.map((d): CorpusPutOutcome => {
          const pending = writes.get(d.docId);
          const old = stored.get(d.docId);
          const hash = pending?.contentHash ?? old?.hash;
          if (hash === d.contentHash) return "unchanged";
          if (old && !pending) replaced.push(old.id);
          writes.set(d.docId, {
            id: null,
            collectionId: cid,
            docId: d.docId,
            title: d.title,
            url: d.url,
            path: d.path,
            format: d.format,
            contentHash: d.contentHash,
            chars: d.passages.reduce((n, p) => n + p.length, 0),
            truncated: d.truncated ? 1 : 0,
            addedAt: now,
            passages: d.passages,
          });
          return hash === undefined ? "added" : "replaced";
        });
        if (replaced.length) await tx`DELETE FROM corpus_documents WHERE id = ANY(${replaced}::int[])`;
        if (writes.size) {
          await insertDocuments(tx, [...writes.values()]);
          await touchCollection(tx, cid);
        }
        return out;
      }),
    async collections() {
      const rows = await sql`SELECT c.name, c.created_at,
          (SELECT count(*)::int FROM corpus_documents d WHERE d.collection_id = c.id) AS documents,
          (SELECT count(*)::int FROM corpus_passages p JOIN corpus_documents d ON d.id = p.document_id
            WHERE d.collection_id = c.id) AS passages,
          (SELECT coalesce(sum(chars), 0)::int FROM corpus_documents d WHERE d.collection_id = c.id) AS chars,
          (SELECT max(added_at) FROM corpus_documents d WHERE d.collection_id = c.id) AS updated_at
        FROM corpus_collections c ORDER BY c.name`;
      return (rows as CollectionRowRaw[]).map(toCollectionSummary);
    },
    documents: async (collection) =>
      (await docsWhere(sql, sql`c.name = ${collection} ORDER BY d.doc_id`)).map(toDocumentRow),
    removeCollection: (name) =>
      sql.begin(async (tx) => {
        await lockCollection(tx, name);
        const cid = await collectionId(tx, name);
        if (cid === null) return null;
        const [{ n }] = await tx`SELECT count(*)::int AS n FROM corpus_documents WHERE collection_id = ${cid}`;
        await tx`DELETE FROM corpus_collections WHERE id = ${cid}`;
        return n as number;
      }),
    async removeDocuments(collection, docIds) {
      if (!docIds.length) return 0;
      return await sql.begin(async (tx) => {
        await lockCollection(tx, collection);
        const cid = await collectionId(tx, collection);
        if (cid === null) return 0;
        const n = (
          await tx`DELETE FROM corpus_documents WHERE collection_id = ${cid} AND doc_id = ANY(${docIds}::text[])`
        ).count;
        if (n) await touchCollection(tx, cid);
        return n;
      });
    },
    hasDocuments: async () => (await sql`SELECT 1 FROM corpus_documents LIMIT 1`).length > 0,
    async bestPassages(documentId, words, limit) {
      const q = await queryTerms(sql, words);
      const hits = q
        ? await sql<CorpusPassage[]>`SELECT seq, text FROM (
            SELECT p.seq, p.text FROM corpus_passages p
            WHERE p.document_id = ${documentId} AND p.search @@ ${q}::tsquery
            ORDER BY ts_rank(p.search, ${q}::tsquery) DESC, p.seq LIMIT ${limit}
          ) best ORDER BY seq`
        : [];
      if (hits.length) return [...hits];
      return [
        ...(await sql`SELECT seq, text FROM corpus_passages WHERE document_id = ${documentId} ORDER BY seq LIMIT ${limit}`),
      ];
    },
  };
}
