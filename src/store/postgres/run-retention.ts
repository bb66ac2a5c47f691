import type { SQL } from "bun";

/**
 * The retention sweep's batch on PostgreSQL (RunsTable.deleteRunsBefore), one statement: the
 * oldest ended runs before the cutoff locked with SKIP LOCKED (instances sweeping at once take
 * different runs and never wait on each other), deleted — their events, idempotency claims and
 * live stream rows by ON DELETE CASCADE — and only the rows this statement deleted added to the
 * per-day tallies, so a run is counted once however many instances sweep.
 */
export function pgRunRetention(sql: SQL) {
  return async (cutoff: Date, limit: number, replayableSince: Date): Promise<number> => {
    const since = replayableSince.toISOString();
    const [row] = await sql<{ n: number }[]>`WITH doomed AS (
        SELECT r.id FROM runs r WHERE r.created_at < ${cutoff.toISOString()} AND r.status <> 'running'
          AND r.finished_at < ${since}
          AND NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.run_id = r.id AND k.created_at >= ${since})
        ORDER BY r.created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ), gone AS (
        DELETE FROM runs WHERE id IN (SELECT id FROM doomed) RETURNING account_id, period, created_at, status
      ), counted AS (
        INSERT INTO run_tallies (account_id, date, period, calls, ok, error)
        SELECT account_id, substr(created_at, 1, 10), min(period), count(*)::int,
          (count(*) FILTER (WHERE status = 'ok'))::int, (count(*) FILTER (WHERE status = 'error'))::int
        FROM gone WHERE account_id IS NOT NULL GROUP BY account_id, substr(created_at, 1, 10)
        ON CONFLICT (account_id, date) DO UPDATE SET calls = run_tallies.calls + excluded.calls,
          ok = run_tallies.ok + excluded.ok, error = run_tallies.error + excluded.error
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM gone`;
    return row?.n ?? 0;
  };
}
