import type { Awaitable } from "../store/types.ts";
import { isDatabaseUnreachable } from "../store/unreachable.ts";
import type { Logger } from "../util/logger.ts";

/** The waits between tries of an outcome while the database is away: doubling from `firstMs` to `maxMs`. */
export interface OutcomeBackoff {
  firstMs: number;
  maxMs: number;
}

export const OUTCOME_BACKOFF: OutcomeBackoff = { firstMs: 100, maxMs: 5_000 };

/** How the first try went: stored, failed for good (logged), or waiting for the database (`retry` goes on trying). */
export type FirstTry = { stored: boolean } | { waiting: true; retry: () => Promise<void> };

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * Writes a run's outcome (docs/decisions/0099-postgres-outage.md). When the database cannot be
 * reached, the outcome is kept here and tried again with backoff until it is taken, however
 * long the outage: the run's caller has its answer and the row must not stay `running`. Only
 * `abandon` (a shutdown) ends the tries, after one last; then the outcome goes to `keep` (the
 * local spool the next start writes, src/runs/held-outcomes.ts) so the stop loses nothing. Any
 * other failure is a statement that would fail again: logged, not retried.
 */
export async function recordOutcome(
  write: () => Awaitable<void>,
  o: { runId: string; logger: Logger; abandon: AbortSignal; backoff?: OutcomeBackoff; keep?: () => void },
): Promise<FirstTry> {
  const { runId, logger, abandon } = o;
  const backoff = o.backoff ?? OUTCOME_BACKOFF;
  const attempt = async (): Promise<"stored" | "failed" | "unreachable"> => {
    try {
      await write();
      return "stored";
    } catch (e) {
      if (isDatabaseUnreachable(e)) return "unreachable";
      logger.error("run_store_failed", { request_id: runId, error: String(e) });
      return "failed";
    }
  };
  const first = await attempt();
  if (first !== "unreachable") return { stored: first === "stored" };
  logger.warn("run_store_waiting", { request_id: runId });
  const retry = async () => {
    for (let wait = backoff.firstMs, tries = 2; ; tries++, wait = Math.min(wait * 2, backoff.maxMs)) {
      await pause(wait, abandon);
      const r = await attempt();
      if (r === "stored") logger.info("run_store_recovered", { request_id: runId, tries });
      if (r !== "unreachable") return;
      if (abandon.aborted) {
        try {
          if (!o.keep) throw new Error("nowhere to keep it");
          o.keep();
          logger.warn("run_outcome_held", { request_id: runId, tries });
        } catch (e) {
          logger.error("run_outcome_lost", { request_id: runId, tries, error: String(e) });
        }
        return;
      }
    }
  };
  return { waiting: true, retry };
}
