import type { Database } from "bun:sqlite";

interface Gone {
  account_id: string | null;
  period: string;
  created_at: string;
  status: string;
}

/**
 * The retention sweep's batch on SQLite (RunsTable.deleteRunsBefore): the oldest ended runs before
 * the cutoff deleted — their events, idempotency claims with them (ON DELETE CASCADE) — and added
 * to their accounts' per-day tallies in the same IMMEDIATE transaction, so the Console's usage
 * counts the same before and after.
 */
export function sqliteRunRetention(db: Database) {
  const remove = db.prepare<Gone, [string, string, number]>(`DELETE FROM runs WHERE id IN (
      SELECT r.id FROM runs r WHERE r.created_at < ?1 AND r.status <> 'running' AND r.finished_at < ?2
        AND NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.run_id = r.id AND k.created_at >= ?2)
      ORDER BY r.created_at LIMIT ?3)
    RETURNING account_id, period, created_at, status`);
  const tally = db.prepare(`INSERT INTO run_tallies (account_id, date, period, calls, ok, error)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6)
    ON CONFLICT (account_id, date) DO UPDATE SET calls = calls + excluded.calls, ok = ok + excluded.ok,
      error = error + excluded.error`);
  const batch = db.transaction((cutoff: string, replayableSince: string, limit: number) => {
    const gone = remove.all(cutoff, replayableSince, limit);
    for (const t of tallies(gone)) tally.run(t.accountId, t.date, t.period, t.calls, t.ok, t.error);
    return gone.length;
  });
  return (cutoff: Date, limit: number, replayableSince: Date): number =>
    batch.immediate(cutoff.toISOString(), replayableSince.toISOString(), limit);
}

/** Deleted runs counted per account and day, as the usage report counts runs. */
function tallies(gone: Gone[]) {
  const by = new Map<
    string,
    { accountId: string; date: string; period: string; calls: number; ok: number; error: number }
  >();
  for (const g of gone) {
    if (g.account_id === null) continue; // a run of no account is in nobody's usage
    const date = g.created_at.slice(0, 10);
    const key = `${g.account_id} ${date}`;
    const t = by.get(key) ?? { accountId: g.account_id, date, period: g.period, calls: 0, ok: 0, error: 0 };
    t.calls++;
    if (g.status === "ok") t.ok++;
    if (g.status === "error") t.error++;
    by.set(key, t);
  }
  return by.values();
}
