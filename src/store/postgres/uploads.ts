import type { SQL } from "bun";
import type { UploadsTable } from "../types.ts";
import { countsOf, STORAGE_USE, toStorageUse, toUploadRow, UPLOAD_COLUMNS, type UploadRowRaw } from "../upload-rows.ts";
import { writeAudit } from "./audit-events.ts";

/** Thrown inside the enqueue transaction to roll it back. */
class Over extends Error {}

/**
 * The upload queue (`corpus_uploads`), shared by every instance. Enqueues of one owner queue
 * on a lock (uploads racing through two instances cannot both pass the allowance); claims queue
 * on another (two instances cannot both start a file of one collection).
 */
export function pgUploads(sql: SQL): UploadsTable {
  const lock = (tx: SQL, key: string) => tx`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
  const rows = (r: UploadRowRaw[]) => r.map(toUploadRow);
  const dead = `status IN ('queued', 'indexing')
    AND (instance_id IS NULL OR instance_id NOT IN (SELECT id FROM instances WHERE expires_at > now()))`;
  const now = () => new Date().toISOString();

  return {
    async enqueue(cid, ownerId, files, fits, note) {
      try {
        return await sql.begin(async (tx) => {
          await lock(tx, `uploads:${ownerId}`);
          if (!(await tx`SELECT 1 FROM corpus_collections WHERE id = ${cid}`).length) return "missing" as const;
          const ids = files.map((f) => f.docId);
          const gone = await tx`DELETE FROM corpus_uploads WHERE collection_id = ${cid} AND doc_id = ANY(${ids}::text[])
            AND status IN ('queued', 'failed') RETURNING spool`;
          const at = now();
          const queued: UploadRowRaw[] = [];
          for (const f of files)
            queued.push(
              ...(await tx.unsafe(
                `INSERT INTO corpus_uploads (collection_id, doc_id, format, bytes, spool, instance_id, status, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $7) RETURNING ${UPLOAD_COLUMNS}`,
                [cid, f.docId, f.format, f.bytes, f.spool, f.instanceId, at],
              )),
            );
          const [use] = await tx.unsafe(STORAGE_USE, [ownerId]);
          if (!fits(toStorageUse(use))) throw new Over();
          if (note) await writeAudit(tx, note);
          const superseded = gone
            .map((r: { spool: string | null }) => r.spool)
            .filter((s: string | null) => s !== null);
          return { queued: rows(queued), superseded };
        });
      } catch (e) {
        if (e instanceof Over) return "over";
        throw e;
      }
    },
    storageUse: async (ownerId) => toStorageUse((await sql.unsafe(STORAGE_USE, [ownerId]))[0]),
    claim: (instanceId) =>
      sql.begin(async (tx) => {
        await lock(tx, "uploads:claim");
        const [r] = await tx.unsafe(
          `UPDATE corpus_uploads SET status = 'indexing', updated_at = $2 WHERE id = (
             SELECT id FROM (
               SELECT u.id, u.collection_id, row_number() OVER (PARTITION BY u.collection_id ORDER BY u.id) AS turn
               FROM corpus_uploads u WHERE u.status = 'queued' AND u.instance_id = $1
             ) q WHERE NOT EXISTS (SELECT 1 FROM corpus_uploads x WHERE x.collection_id = q.collection_id AND x.status = 'indexing')
             ORDER BY turn, id LIMIT 1
           ) RETURNING ${UPLOAD_COLUMNS}`,
          [instanceId, now()],
        );
        return r ? toUploadRow(r) : null;
      }),
    finish: async (id) => (await sql`DELETE FROM corpus_uploads WHERE id = ${id}`).count > 0,
    fail: async (id, error) =>
      (
        await sql`UPDATE corpus_uploads SET status = 'failed', error = ${error}, spool = NULL, updated_at = ${now()} WHERE id = ${id}`
      ).count > 0,
    present: async (id) => (await sql`SELECT 1 FROM corpus_uploads WHERE id = ${id}`).length > 0,
    inFlight: async (cid, docIds) =>
      rows(
        docIds
          ? await sql.unsafe(
              `SELECT ${UPLOAD_COLUMNS} FROM corpus_uploads WHERE collection_id = $1 AND doc_id = ANY($2::text[]) ORDER BY id`,
              [cid, docIds],
            )
          : await sql.unsafe(`SELECT ${UPLOAD_COLUMNS} FROM corpus_uploads WHERE collection_id = $1 ORDER BY id`, [
              cid,
            ]),
      ),
    busy: async (ids) =>
      ids.length
        ? (
            await sql`SELECT DISTINCT collection_id AS id FROM corpus_uploads
              WHERE status IN ('queued', 'indexing') AND collection_id = ANY(${ids}::int[])`
          ).map((r: { id: number }) => Number(r.id))
        : [],
    orphans: async () =>
      rows(await sql.unsafe(`SELECT ${UPLOAD_COLUMNS} FROM corpus_uploads WHERE ${dead} ORDER BY id`)),
    adopt: async (id, instanceId) =>
      (
        await sql.unsafe(
          `UPDATE corpus_uploads SET instance_id = $2, status = 'queued', updated_at = $3 WHERE id = $1 AND ${dead}`,
          [id, instanceId, now()],
        )
      ).count > 0,
    remove: (cid, docId, note) =>
      sql.begin(async (tx) => {
        const gone = rows(
          await tx.unsafe(
            `DELETE FROM corpus_uploads WHERE collection_id = $1 AND doc_id = $2 RETURNING ${UPLOAD_COLUMNS}`,
            [cid, docId],
          ),
        );
        if (note && gone.length) await writeAudit(tx, note);
        return gone;
      }),
    spools: async () =>
      (await sql`SELECT spool FROM corpus_uploads WHERE spool IS NOT NULL`).map((r: { spool: string }) => r.spool),
    statusCounts: async () =>
      countsOf(await sql`SELECT status, count(*)::int AS n FROM corpus_uploads GROUP BY status`),
  };
}
