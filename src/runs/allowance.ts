import type { Config } from "../config/schema.ts";
import type { Allowances, Plan } from "../store/types.ts";
import { monthBounds } from "../util/time.ts";

/** Monthly research runs of a plan (README "Configuration": PLAN_RUNS_*). */
export function allowanceFor(cfg: Config, plan: Plan): number {
  return allowancesOf(cfg)[plan];
}

/** Every plan's monthly runs: acceptance picks the account's in the same transaction that counts it. */
export function allowancesOf(cfg: Config): Allowances {
  return { free: cfg.PLAN_RUNS_FREE, researcher: cfg.PLAN_RUNS_RESEARCHER, pro: cfg.PLAN_RUNS_PRO };
}

/** An account's allowance at the instant `at`: its plan's monthly runs and those counted (README "The API": RateLimit). */
export interface Standing {
  limit: number;
  used: number;
  at: Date;
}

/** Whole seconds from `at` to the UTC month's end, when the allowance resets; at least 1, as Retry-After. */
export function secondsToReset(at: Date): number {
  return Math.max(1, Math.ceil((monthBounds(at).end.getTime() - at.getTime()) / 1000));
}

/** The seconds of the UTC month `at` falls in: the allowance's window. */
export function secondsOfMonth(at: Date): number {
  const { start, end } = monthBounds(at);
  return (end.getTime() - start.getTime()) / 1000;
}
