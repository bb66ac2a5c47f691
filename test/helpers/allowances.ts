import type { Allowances } from "../../src/store/types.ts";

/** The same monthly allowance on every plan: what a store test of counting needs. */
export const everyPlan = (runs: number): Allowances => ({ free: runs, researcher: runs, pro: runs });
