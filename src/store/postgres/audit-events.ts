import type { SQL } from "bun";
import type { AuditNote, AuditTable } from "../types.ts";

const COLUMNS = `id::float8 AS id, at, action, actor_id AS "actorId", actor, target_id AS "targetId", target, ip, detail, cut`;

/**
 * Writes an entry on the connection given: every audited change of this backend passes its own
 * transaction (README "The audit trail"), so the entry commits with the change or not at all.
 */
export async function writeAudit(db: SQL, n: AuditNote): Promise<void> {
  await db`INSERT INTO audit_events (at, action, actor_id, actor, target_id, target, ip, detail)
    VALUES (${new Date().toISOString()}, ${n.action}, ${n.actorId}, ${n.actor}, ${n.targetId ?? null},
      ${n.target ?? null}, ${n.ip}, ${n.detail ?? null})`;
}

const top = (before: number | null | undefined) => before ?? Number.MAX_SAFE_INTEGER;

/** The `audit_events` table. */
export function pgAuditEvents(sql: SQL): AuditTable {
  return {
    append: (note) => writeAudit(sql, note),
    // Threat: a flood of failed sign-ins filling the disk one row each (src/store/sqlite/audit-events.ts).
    failedSignin: (note, bound) =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext('audit:signin_failed'))`;
        const since = new Date(Date.now() - bound.windowMs).toISOString();
        for (const [column, key] of [
          ["ip", note.ip],
          ["target", note.target],
        ] as const) {
          if (key == null) continue;
          const [r] = await tx.unsafe(
            `SELECT count(*)::int AS n, max(id) AS last FROM audit_events
             WHERE action = 'signin_failed' AND ${column} = $1 AND at >= $2`,
            [key, since],
          );
          if (r.n >= bound.max && r.last !== null) {
            await tx`UPDATE audit_events SET cut = cut + 1 WHERE id = ${r.last}`;
            return "counted" as const;
          }
        }
        await writeAudit(tx, note);
        return "written" as const;
      }),
    forAccount: async (accountId, before, limit) => [
      ...(await sql.unsafe(
        `SELECT ${COLUMNS} FROM audit_events WHERE (actor_id = $1 OR target_id = $1) AND id < $2
         ORDER BY id DESC LIMIT $3`,
        [accountId, top(before), limit],
      )),
    ],
    list: async (f) => [
      ...(await sql.unsafe(
        `SELECT ${COLUMNS} FROM audit_events
         WHERE ($1::text IS NULL OR at >= $1) AND ($2::text IS NULL OR actor_id = $2 OR target_id = $2) AND id < $3
         ORDER BY id DESC LIMIT $4`,
        [f.since ?? null, f.accountId ?? null, top(f.before), f.limit],
      )),
    ],
    deleteAuditEventsBefore: async (cutoff, limit) =>
      (
        await sql`DELETE FROM audit_events WHERE id IN
          (SELECT id FROM audit_events WHERE at < ${cutoff.toISOString()} ORDER BY at LIMIT ${limit})`
      ).count,
  };
}
