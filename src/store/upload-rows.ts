import type { StorageUse, UploadRow, UploadStatus } from "./types.ts";

/** An upload row as both backends select it (UPLOAD_COLUMNS). */
export interface UploadRowRaw {
  id: number;
  collection_id: number;
  doc_id: string;
  format: string;
  bytes: number | string;
  spool: string | null;
  instance_id: string | null;
  owner_id: string | null;
  status: UploadStatus;
  error: string | null;
  created_at: string;
}

/** The columns of `corpus_uploads` (unaliased: they follow an UPDATE or DELETE too), with its collection's owner. */
export const UPLOAD_COLUMNS = `id, collection_id, doc_id, format, bytes, spool, instance_id, status, error, created_at,
  (SELECT owner_id FROM corpus_collections WHERE corpus_collections.id = corpus_uploads.collection_id) AS owner_id`;

export const toUploadRow = (r: UploadRowRaw): UploadRow => ({
  id: Number(r.id),
  collectionId: Number(r.collection_id),
  docId: r.doc_id,
  format: r.format,
  bytes: Number(r.bytes),
  spool: r.spool,
  instanceId: r.instance_id,
  ownerId: r.owner_id,
  status: r.status,
  error: r.error,
  createdAt: r.created_at,
});

const OWNED = (table: string, alias: string) =>
  `FROM ${table} ${alias} JOIN corpus_collections c ON c.id = ${alias}.collection_id WHERE c.owner_id = $1`;
const ON_ITS_WAY = `u.status <> 'failed'`;

/**
 * An owner's storage use (StorageUse), the same SQL on both backends ($1: the owner's id; SQLite
 * reads it as ?1). A file on its way in counts at its upload size, and as a document unless it
 * replaces one stored under its name. Casts: PostgreSQL's count and sum types are not integers.
 */
export const STORAGE_USE = `SELECT
    CAST((SELECT count(*) ${OWNED("corpus_documents", "d")}) + (SELECT count(*) ${OWNED("corpus_uploads", "u")} AND ${ON_ITS_WAY}
      AND NOT EXISTS (SELECT 1 FROM corpus_documents s WHERE s.collection_id = u.collection_id AND s.doc_id = u.doc_id)) AS BIGINT) AS documents,
    CAST((SELECT coalesce(sum(d.bytes), 0) ${OWNED("corpus_documents", "d")})
      + (SELECT coalesce(sum(u.bytes), 0) ${OWNED("corpus_uploads", "u")} AND ${ON_ITS_WAY}) AS BIGINT) AS bytes`;

/** StorageUse from its row (PostgreSQL answers bigints as strings). */
export const toStorageUse = (r: { documents: number | string; bytes: number | string }): StorageUse => ({
  documents: Number(r.documents),
  bytes: Number(r.bytes),
});

/** Files by status from `SELECT status, count(*) AS n … GROUP BY status`, a status with none at 0. */
export function countsOf(rows: { status: UploadStatus; n: number | string }[]): Record<UploadStatus, number> {
  const out: Record<UploadStatus, number> = { queued: 0, indexing: 0, failed: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}
