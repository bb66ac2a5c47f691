import type { Config } from "../../config/schema.ts";
import type { Awaitable, Store } from "../../store/types.ts";

/**
 * How long a run stays replayable: an Idempotency-Key's claim lives 24 hours, and a stream may be
 * resumed with Last-Event-ID as long. No sweep deletes a run that ended, or was claimed, since.
 */
const REPLAY_WINDOW_MS = 24 * 3600_000;

/** One kind of data the retention sweep deletes once it is older than its variable's days. */
export interface RetentionSweep {
  /** Named in the sweep's log line. */
  data: string;
  /** The variable holding its age in days; 0 keeps it forever. */
  variable: keyof Config & `${string}_RETENTION_DAYS`;
  /** Deletes one batch of at most `limit` older than `cutoff`; how many it deleted. */
  deleteBatch(store: Store, cutoff: Date, limit: number, now: Date): Awaitable<number>;
}

/**
 * The retention sweep's table (README "Retention"): adding a kind of data is adding a row.
 * Each batch is idempotent and safe to run from several instances at once.
 */
export const RETENTION_SWEEPS: readonly RetentionSweep[] = [
  {
    data: "runs",
    variable: "RUN_RETENTION_DAYS",
    deleteBatch: (store, cutoff, limit, now) =>
      store.runs.deleteRunsBefore(cutoff, limit, new Date(now.getTime() - REPLAY_WINDOW_MS)),
  },
  {
    data: "audit",
    variable: "AUDIT_RETENTION_DAYS",
    deleteBatch: (store, cutoff, limit) => store.audit.deleteAuditEventsBefore(cutoff, limit),
  },
];
