import type { Database } from "bun:sqlite";
import type { Plan, RunCountersTable } from "../types.ts";

/**
 * The `run_counters` table: runs counted per account and month. Acceptance reads and
 * bumps one row instead of counting the month's runs (which grew with every run).
 */
export function sqliteRunCounters(
  db: Database,
): RunCountersTable & { bump(accountId: string, period: string, limit: number): boolean } {
  const used = db.prepare<{ runs: number }, [string, string]>(
    "SELECT runs FROM run_counters WHERE account_id = ? AND period = ?",
  );
  const standing = db.prepare<{ plan: Plan; used: number }, [string, string]>(
    `SELECT a.plan, coalesce(c.runs, 0) AS used FROM accounts a
      LEFT JOIN run_counters c ON c.account_id = a.id AND c.period = ?2 WHERE a.id = ?1`,
  );
  // An upsert whose update applies only below the limit: one statement decides and counts.
  const bump = db.prepare(`INSERT INTO run_counters (account_id, period, runs) VALUES (?, ?, 1)
    ON CONFLICT (account_id, period) DO UPDATE SET runs = runs + 1 WHERE runs < ?`);
  const all = db.prepare<{ period: string; runs: number }, [string]>(
    "SELECT period, runs FROM run_counters WHERE account_id = ? ORDER BY period",
  );
  return {
    used: (accountId, period) => used.get(accountId, period)?.runs ?? 0,
    byAccount: (accountId) => all.all(accountId),
    standing: (accountId, period) => standing.get(accountId, period) ?? null,
    /** Only inside runs.accept's transaction. */
    bump: (accountId, period, limit) => bump.run(accountId, period, limit).changes === 1,
  };
}
