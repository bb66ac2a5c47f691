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
  const r = db.$client.query<{ n: number }, [string, string]>("SELECT COUNT(*) AS n FROM runs WHERE account_id = ? AND period = ?")
    .get(accountId, periodOf(at));
  return r?.n ?? 0;
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
 * Accepts a run if the account has runs left this month, counting it in the same
 * statement. One INSERT … SELECT … WHERE count < limit is atomic in SQLite (writers are
 * serialised), so no burst of concurrent calls can exceed the allowance.
 * `limit` null means uncounted (CLI runs). Returns false when the allowance is used up.
 */
export function acceptRun(db: Db, run: NewRun, limit: number | null): boolean {
  const period = periodOf(run.createdAt);
  const args = [run.id, run.accountId, run.keyId, run.keyPrefix, run.origin, run.endpoint, run.query, period, run.createdAt.toISOString()] as const;
  const insert = `INSERT INTO runs (id, account_id, key_id, key_prefix, origin, endpoint, query, period, status, created_at)
    SELECT ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?`;
  if (limit === null) return db.$client.query(insert).run(...args).changes === 1;
  const res = db.$client.query(`${insert} WHERE (SELECT COUNT(*) FROM runs WHERE account_id = ? AND period = ?) < ?`)
    .run(...args, run.accountId, period, limit);
  return res.changes === 1;
}
