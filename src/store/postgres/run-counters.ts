import type { SQL } from "bun";
import type { RunCountersTable } from "../types.ts";

/** The `run_counters` table: runs counted per account and month. */
export function pgRunCounters(sql: SQL): RunCountersTable & {
  bump(tx: SQL, accountId: string, period: string, limit: number): Promise<boolean>;
} {
  return {
    async used(accountId, period) {
      const [r] = await sql`SELECT runs FROM run_counters WHERE account_id = ${accountId} AND period = ${period}`;
      return (r?.runs as number | undefined) ?? 0;
    },
    /**
     * Only inside runs.accept's transaction. One statement decides and counts: concurrent
     * upserts of the same row queue on its lock, and each re-reads the committed count
     * before its WHERE, so no spread of calls over instances passes the limit.
     */
    bump: async (tx, accountId, period, limit) =>
      (
        await tx`INSERT INTO run_counters (account_id, period, runs) VALUES (${accountId}, ${period}, 1)
          ON CONFLICT (account_id, period) DO UPDATE SET runs = run_counters.runs + 1 WHERE run_counters.runs < ${limit}`
      ).count === 1,
  };
}
