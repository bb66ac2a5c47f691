import type { Config } from "../config/schema.ts";
import type { Plan } from "../store/types.ts";

/** Monthly research runs of a plan (README "Configuration": PLAN_RUNS_*). */
export function allowanceFor(cfg: Config, plan: Plan): number {
  return plan === "pro" ? cfg.PLAN_RUNS_PRO : plan === "researcher" ? cfg.PLAN_RUNS_RESEARCHER : cfg.PLAN_RUNS_FREE;
}
