import type { Config } from "../config/schema.ts";
import type { Plan } from "../auth/accounts.ts";
import type { Db } from "../db/open.ts";
import { periodOf } from "../util/time.ts";

/** Monthly research runs of a plan (SPEC §8, overridable per CONTRACT §2). */
export function allowanceFor(cfg: Config, plan: Plan): number {
  return plan === "pro" ? cfg.PLAN_RUNS_PRO : plan === "researcher" ? cfg.PLAN_RUNS_RESEARCHER : cfg.PLAN_RUNS_FREE;
}

/** Runs an account has used in the month of `at` (API and app alike). */
export function runsUsed(db: Db, accountId: string, at: Date = new Date()): number {
  return db.$client.query<{ runs: number }, [string, string]>("SELECT runs FROM run_counters WHERE account_id = ? AND period = ?")
    .get(accountId, periodOf(at))?.runs ?? 0;
}

/** What the service records about a run at acceptance. */
export interface NewRun {
  id: string;
  accountId: string | null;
  keyId: string | null;
  keyPrefix: string | null;
  origin: "api" | "app" | "cli";
  endpoint: string;
  query: string;
  createdAt: Date;
}

/**
 * Accepts a run if the account has runs left this month, counting it, in one IMMEDIATE
 * transaction: the conditional bump of the month's counter (an upsert whose update only
 * applies below the limit) decides, and the run row is written only if it succeeded. The
 * write lock is taken at BEGIN, so no burst of concurrent calls, in this process or
 * another, can exceed the allowance. `limit` null means uncounted (CLI runs). Returns
 * false when the allowance is used up.
 */
export function acceptRun(db: Db, run: NewRun, limit: number | null): boolean {
  const period = periodOf(run.createdAt);
  const insertRun = () => db.$client.query(`INSERT INTO runs (id, account_id, key_id, key_prefix, origin, endpoint, query, period, status, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)`)
    .run(run.id, run.accountId, run.keyId, run.keyPrefix, run.origin, run.endpoint, run.query, period, run.createdAt.toISOString());
  if (limit === null || run.accountId === null) { insertRun(); return true; }
  if (limit <= 0) return false;
  const accountId = run.accountId;
  return db.$client.transaction(() => {
    const bumped = db.$client.query(`INSERT INTO run_counters (account_id, period, runs) VALUES (?, ?, 1)
      ON CONFLICT (account_id, period) DO UPDATE SET runs = runs + 1 WHERE runs < ?`).run(accountId, period, limit).changes === 1;
    if (bumped) insertRun();
    return bumped;
  }).immediate();
}
