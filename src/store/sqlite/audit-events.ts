import type { Database } from "bun:sqlite";
import type { AuditNote, AuditRow, AuditTable } from "../types.ts";

const COLUMNS = `id, at, action, actor_id AS actorId, actor, target_id AS targetId, target, ip, detail, cut`;

/**
 * The writer every audited change of this backend calls inside its own transaction (README
 * "The audit trail"), so the entry commits with the change or not at all.
 */
export function sqliteAuditWriter(db: Database): (note: AuditNote) => void {
  const insert = db.prepare(
    `INSERT INTO audit_events (at, action, actor_id, actor, target_id, target, ip, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (n) => {
    insert.run(
      new Date().toISOString(),
      n.action,
      n.actorId,
      n.actor,
      n.targetId ?? null,
      n.target ?? null,
      n.ip,
      n.detail ?? null,
    );
  };
}

/** The `audit_events` table. */
export function sqliteAuditEvents(db: Database, write: (note: AuditNote) => void): AuditTable {
  const recentBy = (column: "ip" | "target") =>
    db.prepare<{ n: number; last: number | null }, [string, string]>(
      `SELECT count(*) AS n, max(id) AS last FROM audit_events
       WHERE action = 'signin_failed' AND ${column} = ? AND at >= ?`,
    );
  const byIp = recentBy("ip");
  const byTarget = recentBy("target");
  const bump = db.prepare("UPDATE audit_events SET cut = cut + 1 WHERE id = ?");
  // Threat: a flood of failed sign-ins filling the disk one row each; past its bound a client's
  // (or an address's) failures are counted on the last row written for it instead.
  const failed = db.transaction((note: AuditNote, max: number, since: string): "written" | "counted" => {
    for (const [q, key] of [
      [byIp, note.ip],
      [byTarget, note.target],
    ] as const) {
      if (key == null) continue;
      const r = q.get(key, since);
      if (r && r.n >= max && r.last !== null) {
        bump.run(r.last);
        return "counted";
      }
    }
    write(note);
    return "written";
  });
  const forAccount = db.prepare<AuditRow, [string, number, number]>(
    `SELECT ${COLUMNS} FROM audit_events WHERE id IN (
       SELECT id FROM audit_events WHERE actor_id = ?1 AND id < ?2
       UNION SELECT id FROM audit_events WHERE target_id = ?1 AND id < ?2)
     ORDER BY id DESC LIMIT ?3`,
  );
  const list = db.prepare<AuditRow, [string | null, string | null, number, number]>(
    `SELECT ${COLUMNS} FROM audit_events
     WHERE (?1 IS NULL OR at >= ?1) AND (?2 IS NULL OR actor_id = ?2 OR target_id = ?2) AND id < ?3
     ORDER BY id DESC LIMIT ?4`,
  );
  const sweep = db.prepare(
    "DELETE FROM audit_events WHERE id IN (SELECT id FROM audit_events WHERE at < ? ORDER BY at LIMIT ?)",
  );
  const top = (before: number | null | undefined) => before ?? Number.MAX_SAFE_INTEGER;
  return {
    append: (note) => write(note),
    failedSignin: (note, bound) =>
      failed.immediate(note, bound.max, new Date(Date.now() - bound.windowMs).toISOString()),
    forAccount: (accountId, before, limit) => forAccount.all(accountId, top(before), limit),
    list: (f) => list.all(f.since ?? null, f.accountId ?? null, top(f.before), f.limit),
    deleteAuditEventsBefore: async (cutoff, limit) => sweep.run(cutoff.toISOString(), limit).changes,
  };
}
