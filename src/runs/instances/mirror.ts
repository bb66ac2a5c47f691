import type { StreamEvent } from "../../contract/events.ts";
import type { RunStreamTable, StreamedEvent } from "../../store/types.ts";
import { isDatabaseUnreachable } from "../../store/unreachable.ts";
import type { Logger } from "../../util/logger.ts";
import type { RunLog, Sequenced } from "../run-log.ts";
import type { Follow } from "./follow.ts";

/** How long events gather before one write: a run's answer deltas go out in tens, not one row each. */
const FLUSH_MS = 50;
/** How often a follower on another instance looks for new events. */
const POLL_MS = 250;

/** The longest wait before a failed batch is tried again (the database away: docs/decisions/0099-postgres-outage.md). */
const RETRY_MAX_MS = 2_000;

/**
 * The running instance's side (README "PostgreSQL"): every event of the run's log is written
 * to the store's run stream as it is sent, in batches, one write at a time and in order, until
 * the final event. A failed write is logged and its events are kept, in order, ahead of any
 * later ones, and tried again with backoff whether or not more events come; followers
 * elsewhere fall back to the stored run when it ends, so nothing is lost either way.
 */
export function mirrorRun(stream: RunStreamTable, runId: string, log: RunLog, logger: Logger): void {
  let pending: StreamedEvent[] = [];
  let scheduled = false;
  let done = false;
  let retryMs = FLUSH_MS;
  const flush = async () => {
    while (pending.length && !done) {
      const batch = pending;
      pending = [];
      try {
        await stream.append(runId, batch);
        retryMs = FLUSH_MS;
      } catch (e) {
        if (retryMs === FLUSH_MS) logger.warn("run_stream_failed", { request_id: runId, error: String(e) });
        pending = [...batch, ...pending];
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        if (!done) setTimeout(() => void flush(), retryMs);
        return;
      }
    }
    scheduled = false;
  };
  const stop = log.follow(0, (s) => {
    if (done) return;
    // The final event follows the stored outcome: followers read it from there, and events still
    // waiting would be refused by the finished run anyway (and the store may be closing).
    if (s.event.event === "final") {
      done = true;
      pending = [];
      queueMicrotask(() => stop());
      return;
    }
    pending.push({ seq: s.seq, event: s.event });
    if (!scheduled) {
      scheduled = true;
      setTimeout(() => void flush(), FLUSH_MS);
    }
  });
}

/**
 * A follower's view of a run in flight on another instance: the events after `after` from
 * the run stream, live, as they are written; once the run has ended (`ended` resolves with
 * its stored view), the rest from there. Events are handed on in order, without gaps.
 */
export function mirroredFollow(runId: string, stream: RunStreamTable, ended: Promise<Follow>): Follow {
  return {
    runId,
    hasAfter: () => true,
    async stream(after, on, signal) {
      let last = after;
      const aborted = new Promise<null>((r) => {
        if (signal?.aborted) r(null);
        signal?.addEventListener("abort", () => r(null), { once: true });
      });
      for (;;) {
        // The database away: nothing new to hand on yet; the events are there once it is back.
        const found = await Promise.resolve(stream.after(runId, last)).catch((e: unknown) => {
          if (isDatabaseUnreachable(e)) return [];
          throw e;
        });
        for (const e of found) {
          if (e.seq !== last + 1) break;
          const s: Sequenced = { seq: e.seq, event: e.event as StreamEvent };
          on(s);
          last = s.seq;
        }
        const next = await Promise.race([ended, aborted, Bun.sleep(POLL_MS).then(() => undefined)]);
        if (next === null || signal?.aborted) return;
        if (next) return next.stream(last, on, signal);
      }
    },
    result: () => ended.then((f) => f.result()),
  };
}
