import type { StreamEvent } from "../contract/events.ts";
import type { RunStreamTable, StreamedEvent } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";
import type { Follow } from "./follow.ts";
import type { RunLog, Sequenced } from "./run-log.ts";

/** How long events gather before one write: a run's answer deltas go out in tens, not one row each. */
const FLUSH_MS = 50;
/** How often a follower on another instance looks for new events. */
const POLL_MS = 250;

/**
 * The running instance's side (README "PostgreSQL"): every event of the run's log is written
 * to the store's run stream as it is sent, in batches, one write at a time and in order, until
 * the final event. A failed write is logged and its events are written with the next batch;
 * followers elsewhere fall back to the stored run when it ends, so nothing is lost either way.
 */
export function mirrorRun(stream: RunStreamTable, runId: string, log: RunLog, logger: Logger): void {
  let pending: StreamedEvent[] = [];
  let scheduled = false;
  let done = false;
  const flush = async () => {
    while (pending.length) {
      const batch = pending;
      pending = [];
      try {
        await stream.append(runId, batch);
      } catch (e) {
        logger.warn("run_stream_failed", { request_id: runId, error: String(e) });
        pending = [...batch, ...pending];
        break;
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
        for (const e of await stream.after(runId, last)) {
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
