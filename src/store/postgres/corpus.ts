import type { SQL } from "bun";
import {
  COLLECTION_REF_SELECT,
  COLLECTION_SELECT,
  type CollectionRowRaw,
  type DocRowRaw,
  passageBytes,
  toCollectionRef,
  toCollectionSummary,
  toDocumentRow,
} from "../corpus-rows.ts";
import type { CollectionReader, CorpusPassage, CorpusPutOutcome, CorpusTable } from "../types.ts";
import { writeAudit } from "./audit-events.ts";
import { type DocumentInput, insertDocuments, queryTerms, touchCollection } from "./corpus-index.ts";

/** Document rows with their collection's name and owner, as every read of them selects them. */
export const docsWhere = (db: SQL, where: SQL.Query<unknown>) =>
  db<DocRowRaw[]>`SELECT d.id, d.collection_id, c.name AS collection,
    (SELECT a.email FROM accounts a WHERE a.id = c.owner_id) AS owner, d.doc_id, d.title, d.url, d.path, d.format,
    d.chars, d.truncated, d.added_at FROM corpus_documents d JOIN corpus_collections c ON c.id = d.collection_id
    WHERE ${where}`;

/**
 * The collection tables (corpus_*). Each document and passage carries its own tsvector,
 * written with it (corpus-index.ts; no triggers to keep in step): deleting a row deletes
 * its index entry.
 */
export function pgCorpus(sql: SQL): CorpusTable {
  // Writers of one collection queue here, whichever instance or CLI they run in, as they do on
  // SQLite's single writer: two imports of the same document can't both add it.
  const lockCollection = (tx: SQL, id: number) => tx`SELECT pg_advisory_xact_lock(hashtext(${`corpus:${id}`}))`;
  const exists = async (db: SQL, id: number) =>
    (await db`SELECT 1 FROM corpus_collections WHERE id = ${id}`).length > 0;
  const summaries = async (db: SQL, where: string, args: unknown[]) =>
    ((await db.unsafe(`${COLLECTION_SELECT} WHERE ${where} ORDER BY c.name, a.email`, args)) as CollectionRowRaw[]).map(
      toCollectionSummary,
    );
  const readerWhere = (r: CollectionReader): [string, unknown[]] =>
    r === "all" ? ["true", []] : ["c.visibility = 'shared' OR c.owner_id = ANY($1::text[])", [r.accounts]];

  return {
    async createCollection(c, note) {
      const rows = await sql.begin(async (tx) => {
        const made = await tx`INSERT INTO corpus_collections (name, owner_id, visibility, created_at)
          VALUES (${c.name}, ${c.ownerId}, ${c.visibility}, ${new Date().toISOString()}) ON CONFLICT DO NOTHING RETURNING id`;
        if (made.length && note) await writeAudit(tx, note);
        return made;
      });
      return rows.length ? ((await summaries(sql, "c.id = $1", [rows[0].id]))[0] ?? null) : null;
    },
    collections: (reader) => summaries(sql, ...readerWhere(reader)),
    findCollection: async (ownerId, name) =>
      (await summaries(sql, "coalesce(c.owner_id, '') = $1 AND c.name = $2", [ownerId ?? "", name]))[0] ?? null,
    collectionRef: async (ownerId, name) => {
      const [row] = await sql.unsafe(`${COLLECTION_REF_SELECT} WHERE coalesce(c.owner_id, '') = $1 AND c.name = $2`, [
        ownerId ?? "",
        name,
      ]);
      return row ? toCollectionRef(row) : null;
    },
    sharedRefs: async (name) =>
      (
        await sql.unsafe(`${COLLECTION_REF_SELECT} WHERE c.name = $1 AND c.visibility = 'shared' ORDER BY a.email`, [
          name,
        ])
      ).map(toCollectionRef),
    async readable(reader) {
      const [where, args] = readerWhere(reader);
      const rows = await sql.unsafe(`SELECT c.id FROM corpus_collections c WHERE ${where} ORDER BY c.id`, args);
      return rows.map((r: { id: number }) => r.id);
    },
    updateCollection: (id, change, note) =>
      sql.begin(async (tx) => {
        await lockCollection(tx, id);
        const [c] = await tx`SELECT name, owner_id, visibility FROM corpus_collections WHERE id = ${id}`;
        if (!c) return "missing" as const;
        const name: string = change.name ?? c.name;
        const owner: string | null = change.ownerId === undefined ? c.owner_id : change.ownerId;
        const taken = await tx`SELECT 1 FROM corpus_collections
          WHERE coalesce(owner_id, '') = ${owner ?? ""} AND name = ${name} AND id <> ${id}`;
        if (taken.length) return "taken" as const;
        // A unique violation here is a rename racing another: the same answer as the check's.
        try {
          await tx.savepoint(
            (sp) =>
              sp`UPDATE corpus_collections SET name = ${name}, owner_id = ${owner},
              visibility = ${change.visibility ?? c.visibility}, version = version + 1 WHERE id = ${id}`,
          );
        } catch (e) {
          if ((e as { errno?: string }).errno === "23505") return "taken" as const;
          throw e;
        }
        if (note) await writeAudit(tx, note);
        return "ok" as const;
      }),
    put: (cid, docs) =>
      sql.begin(async (tx) => {
        await lockCollection(tx, cid);
        if (!(await exists(tx, cid))) throw new Error("the collection was removed");
        const now = new Date().toISOString();
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
            bytes: passageBytes(d.passages),
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
    documents: async (cid, docIds) =>
      (
        await docsWhere(
          sql,
          docIds
            ? sql`c.id = ${cid} AND d.doc_id = ANY(${docIds}::text[]) ORDER BY d.doc_id`
            : sql`c.id = ${cid} ORDER BY d.doc_id`,
        )
      ).map(toDocumentRow),
    documentIds: async (cid, from, limit) =>
      (
        await sql`(SELECT doc_id FROM corpus_documents WHERE collection_id = ${cid} AND doc_id >= ${from}
            ORDER BY doc_id LIMIT ${limit})
          UNION (SELECT DISTINCT doc_id FROM corpus_uploads WHERE collection_id = ${cid} AND doc_id >= ${from}
            ORDER BY doc_id LIMIT ${limit})
          ORDER BY doc_id LIMIT ${limit}`
      ).map((r: { doc_id: string }) => r.doc_id),
    async document(cid, docId) {
      const [row] = await docsWhere(sql, sql`c.id = ${cid} AND d.doc_id = ${docId}`);
      return row ? toDocumentRow(row) : null;
    },
    removeCollection: (cid, note) =>
      sql.begin(async (tx) => {
        await lockCollection(tx, cid);
        if (!(await exists(tx, cid))) return null;
        const [{ n }] = await tx`SELECT count(*)::int AS n FROM corpus_documents WHERE collection_id = ${cid}`;
        await tx`DELETE FROM corpus_collections WHERE id = ${cid}`;
        if (note) await writeAudit(tx, note);
        return n as number;
      }),
    async removeDocuments(cid, docIds, note) {
      if (!docIds.length) return 0;
      return await sql.begin(async (tx) => {
        await lockCollection(tx, cid);
        const n = (
          await tx`DELETE FROM corpus_documents WHERE collection_id = ${cid} AND doc_id = ANY(${docIds}::text[])`
        ).count;
        if (n) await touchCollection(tx, cid);
        if (n && note) await writeAudit(tx, note);
        return n;
      });
    },
    hasDocuments: async (ids) =>
      ids.length > 0 &&
      (await sql`SELECT 1 FROM corpus_documents WHERE collection_id = ANY(${ids}::int[]) LIMIT 1`).length > 0,
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
