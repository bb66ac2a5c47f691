import type { Database } from "bun:sqlite";
import type { AuditNote, EnqueueOutcome, NewUpload, StorageUse, UploadStatus, UploadsTable } from "../types.ts";
import { countsOf, STORAGE_USE, toStorageUse, toUploadRow, UPLOAD_COLUMNS, type UploadRowRaw } from "../upload-rows.ts";

/** Thrown inside the enqueue transaction to roll it back. */
class Over extends Error {}

/** The upload queue (`corpus_uploads`). One writer at a time: SQLite's own lock serialises enqueues. */
export function sqliteUploads(db: Database, audit: (note: AuditNote) => void): UploadsTable {
  const collectionExists = db.prepare<{ id: number }, [number]>("SELECT id FROM corpus_collections WHERE id = ?");
  const supersede = db.prepare<{ spool: string | null }, [number, string]>(
    `DELETE FROM corpus_uploads WHERE collection_id = ? AND doc_id = ? AND status IN ('queued', 'failed') RETURNING spool`,
  );
  const insert = db.prepare<UploadRowRaw, [number, string, string, number, string | null, string | null, string]>(
    `INSERT INTO corpus_uploads (collection_id, doc_id, format, bytes, spool, instance_id, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'queued', ?7, ?7) RETURNING ${UPLOAD_COLUMNS}`,
  );
  const use = db.prepare<StorageUse, [string]>(STORAGE_USE.replaceAll("$1", "?1"));
  const claim = db.prepare<UploadRowRaw, [string, string]>(
    `UPDATE corpus_uploads SET status = 'indexing', updated_at = ?2 WHERE id = (
       SELECT id FROM (
         SELECT u.id, u.collection_id, row_number() OVER (PARTITION BY u.collection_id ORDER BY u.id) AS turn
         FROM corpus_uploads u WHERE u.status = 'queued' AND u.instance_id = ?1
       ) q WHERE NOT EXISTS (SELECT 1 FROM corpus_uploads x WHERE x.collection_id = q.collection_id AND x.status = 'indexing')
       ORDER BY turn, id LIMIT 1
     ) RETURNING ${UPLOAD_COLUMNS}`,
  );
  const finish = db.prepare("DELETE FROM corpus_uploads WHERE id = ?");
  const fail = db.prepare(
    "UPDATE corpus_uploads SET status = 'failed', error = ?2, spool = NULL, updated_at = ?3 WHERE id = ?1",
  );
  const present = db.prepare<{ id: number }, [number]>("SELECT id FROM corpus_uploads WHERE id = ?");
  const inFlight = db.prepare<UploadRowRaw, [number]>(
    `SELECT ${UPLOAD_COLUMNS} FROM corpus_uploads WHERE collection_id = ? ORDER BY id`,
  );
  const inFlightOf = db.prepare<UploadRowRaw, [number, string]>(
    `SELECT ${UPLOAD_COLUMNS} FROM corpus_uploads WHERE collection_id = ? AND doc_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  );
  const busy = db.prepare<{ id: number }, [string]>(
    `SELECT DISTINCT collection_id AS id FROM corpus_uploads
     WHERE status IN ('queued', 'indexing') AND collection_id IN (SELECT value FROM json_each(?))`,
  );
  const dead = `status IN ('queued', 'indexing')
    AND (instance_id IS NULL OR instance_id NOT IN (SELECT id FROM instances WHERE expires_at > ?1))`;
  const orphans = db.prepare<UploadRowRaw, [string]>(
    `SELECT ${UPLOAD_COLUMNS} FROM corpus_uploads WHERE ${dead} ORDER BY id`,
  );
  const adopt = db.prepare(
    `UPDATE corpus_uploads SET instance_id = ?3, status = 'queued', updated_at = ?1 WHERE id = ?2 AND ${dead}`,
  );
  const remove = db.prepare<UploadRowRaw, [number, string]>(
    `DELETE FROM corpus_uploads WHERE collection_id = ? AND doc_id = ? RETURNING ${UPLOAD_COLUMNS}`,
  );
  const spools = db.prepare<{ spool: string }, []>("SELECT spool FROM corpus_uploads WHERE spool IS NOT NULL");
  const byStatus = db.prepare<{ status: UploadStatus; n: number }, []>(
    "SELECT status, count(*) AS n FROM corpus_uploads GROUP BY status",
  );
  const now = () => new Date().toISOString();

  const enqueue = db.transaction(
    (
      cid: number,
      ownerId: string,
      files: NewUpload[],
      fits: (u: StorageUse) => boolean,
      note?: AuditNote,
    ): EnqueueOutcome => {
      if (!collectionExists.get(cid)) return "missing";
      const superseded: string[] = [];
      for (const f of files) for (const r of supersede.all(cid, f.docId)) if (r.spool) superseded.push(r.spool);
      const at = now();
      const queued = files.map((f) =>
        toUploadRow(insert.get(cid, f.docId, f.format, f.bytes, f.spool, f.instanceId, at)!),
      );
      if (!fits(toStorageUse(use.get(ownerId)!))) throw new Over();
      if (note) audit(note);
      return { queued, superseded };
    },
  );

  return {
    enqueue(cid, ownerId, files, fits, note) {
      try {
        return enqueue.immediate(cid, ownerId, files, fits, note);
      } catch (e) {
        if (e instanceof Over) return "over";
        throw e;
      }
    },
    storageUse: (ownerId) => toStorageUse(use.get(ownerId)!),
    claim(instanceId) {
      const r = claim.get(instanceId, now());
      return r ? toUploadRow(r) : null;
    },
    finish: (id) => finish.run(id).changes > 0,
    fail: (id, error) => fail.run(id, error, now()).changes > 0,
    present: (id) => present.get(id) !== null,
    inFlight: (cid, docIds) =>
      (docIds ? inFlightOf.all(cid, JSON.stringify(docIds)) : inFlight.all(cid)).map(toUploadRow),
    busy: (ids) => (ids.length ? busy.all(JSON.stringify(ids)).map((r) => r.id) : []),
    orphans: () => orphans.all(now()).map(toUploadRow),
    adopt: (id, instanceId) => adopt.run(now(), id, instanceId).changes > 0,
    remove: db.transaction((cid: number, docId: string, note?: AuditNote) => {
      const gone = remove.all(cid, docId).map(toUploadRow);
      if (note && gone.length) audit(note);
      return gone;
    }),
    spools: () => spools.all().map((r) => r.spool),
    statusCounts: () => countsOf(byStatus.all()),
  };
}
