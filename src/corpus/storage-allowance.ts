import type { Config } from "../config/schema.ts";
import type { Plan, StorageUse, Store } from "../store/types.ts";

/** Documents and bytes of text an account may keep in its own collections (README "Configuration": PLAN_DOCS_*, PLAN_BYTES_*). */
export type StorageAllowance = StorageUse;

export function storageAllowanceFor(cfg: Config, plan: Plan): StorageAllowance {
  if (plan === "pro") return { documents: cfg.PLAN_DOCS_PRO, bytes: cfg.PLAN_BYTES_PRO };
  if (plan === "researcher") return { documents: cfg.PLAN_DOCS_RESEARCHER, bytes: cfg.PLAN_BYTES_RESEARCHER };
  return { documents: cfg.PLAN_DOCS_FREE, bytes: cfg.PLAN_BYTES_FREE };
}

export const withinAllowance = (use: StorageUse, allowance: StorageAllowance): boolean =>
  use.documents <= allowance.documents && use.bytes <= allowance.bytes;

interface Measure {
  limit: number;
  used: number;
  remaining: number;
}

/** The Console's view of it: each measure's limit, use and what remains. */
export interface StorageReport {
  documents: Measure;
  bytes: Measure;
}

const measure = (limit: number, used: number): Measure => ({ limit, used, remaining: Math.max(0, limit - used) });

/** What the account keeps of its allowance (files still being imported count at their upload size). */
export async function storageReport(
  store: Store,
  cfg: Config,
  account: { id: string; plan: Plan },
): Promise<StorageReport> {
  const allowance = storageAllowanceFor(cfg, account.plan);
  const use = await store.uploads.storageUse(account.id);
  return { documents: measure(allowance.documents, use.documents), bytes: measure(allowance.bytes, use.bytes) };
}
