import type { SQL } from "bun";
import type { Plan, RunCountersTable } from "../types.ts";

/** The `run_counters` table: runs counted per account and month (counted by rq_accept_run, runs.ts). */
export function pgRunCounters(sql: SQL): RunCountersTable {
  return {
    async used(accountId, period) {
      const [r] = await sql`SELECT runs FROM run_counters WHERE account_id = ${accountId} AND period = ${period}`;
      return (r?.runs as number | undefined) ?? 0;
    },
    byAccount: async (accountId) => [
      ...(await sql<{ period: string; runs: number }[]>`SELECT period, runs FROM run_counters
        WHERE account_id = ${accountId} ORDER BY period`),
    ],
    // One round trip: the plan and the count as of the same snapshot.
    async standing(accountId, period) {
      const [r] = await sql<
        { plan: Plan; used: number }[]
      >`SELECT a.plan, coalesce(c.runs, 0)::int AS used FROM accounts a
        LEFT JOIN run_counters c ON c.account_id = a.id AND c.period = ${period} WHERE a.id = ${accountId}`;
      return r ?? null;
    },
  };
}
