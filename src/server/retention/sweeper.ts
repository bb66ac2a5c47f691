import type { Config } from "../../config/schema.ts";
import type { Store } from "../../store/types.ts";
import type { Logger } from "../../util/logger.ts";
import { RETENTION_SWEEPS, type RetentionSweep } from "./sweeps.ts";

/** When the sweep runs and how much one batch deletes; tests shorten them and set the clock. */
export interface RetentionTimings {
  /** After the start: within 30 s, once the server is up and its first calls are answered. */
  firstMs?: number;
  everyMs?: number;
  /** Rows per batch: one short transaction each, so no call waits long behind it. */
  batch?: number;
  now?: () => Date;
  sweeps?: readonly RetentionSweep[];
}

export interface Retention {
  /** One whole sweep now (every row, every batch): what was deleted, by data. */
  sweep(): Promise<Record<string, number>>;
  /** Lets a batch under way finish; no other starts. */
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;

/**
 * The retention sweep of a serving process: off the request path, a batch at a time with a turn
 * of the event loop between batches, within 30 s of a start and then every hour. A row whose
 * variable is 0 is skipped. Every instance sweeps: batches are idempotent and take disjoint rows
 * (docs/decisions/0187-retention-swept-by-every-instance.md).
 */
export function startRetention(store: Store, config: Config, logger: Logger, t: RetentionTimings = {}): Retention {
  const { firstMs = 10_000, everyMs = 3_600_000, batch = 200, now = () => new Date() } = t;
  const sweeps = t.sweeps ?? RETENTION_SWEEPS;
  let stopped = false;
  let running: Promise<Record<string, number>> | null = null;

  const one = async (s: RetentionSweep): Promise<number> => {
    const days = Number(config[s.variable] ?? 0);
    if (!days) return 0;
    const at = now();
    const cutoff = new Date(at.getTime() - days * DAY_MS);
    let deleted = 0;
    for (;;) {
      const n = await s.deleteBatch(store, cutoff, batch, at);
      deleted += n;
      if (n < batch || stopped) break;
      await new Promise((r) => setImmediate(r));
    }
    if (deleted) logger.info("retention_sweep", { data: s.data, deleted, before: cutoff.toISOString(), days });
    return deleted;
  };
  const sweep = () =>
    (running ??= (async () => {
      const out: Record<string, number> = {};
      for (const s of sweeps) {
        if (stopped) break;
        try {
          out[s.data] = await one(s);
        } catch (e) {
          // The next sweep tries again: a database away for a while must not stop the server.
          logger.warn("retention_sweep_failed", { data: s.data, error: String(e) });
        }
      }
      return out;
    })().finally(() => {
      running = null;
    }));
  const tick = () => void sweep();
  const first = setTimeout(tick, firstMs);
  const every = setInterval(tick, everyMs);
  first.unref();
  every.unref();
  return {
    sweep,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
