import type { Config } from "../config/schema.ts";
import type { Allowances, Plan } from "../store/types.ts";

/** Monthly research runs of a plan (README "Configuration": PLAN_RUNS_*). */
export function allowanceFor(cfg: Config, plan: Plan): number {
  return allowancesOf(cfg)[plan];
}

/** Every plan's monthly runs: acceptance picks the account's in the same transaction that counts it. */
export function allowancesOf(cfg: Config): Allowances {
  return { free: cfg.PLAN_RUNS_FREE, researcher: cfg.PLAN_RUNS_RESEARCHER, pro: cfg.PLAN_RUNS_PRO };
}
