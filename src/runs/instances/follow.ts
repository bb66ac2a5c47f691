import type { Envelope } from "../../contract/envelope.ts";
import type { LiveRun } from "../registry.ts";
import type { Sequenced } from "../run-log.ts";

/**
 * One caller's view of a run, whoever started it (README "Safe retries"): its events after
 * a given id, replayed and then live, and its envelope once it has ended. The caller going
 * away ends the view, never the run.
 */
export interface Follow {
  readonly runId: string;
  /** False only when the run has ended and nothing comes after `after`. */
  hasAfter(after: number): boolean;
  /** Hands `on` the events after `after` until the final one, or until `signal` aborts. */
  stream(after: number, on: (e: Sequenced) => void, signal?: AbortSignal): Promise<void>;
  result(): Promise<Envelope>;
}

/** A run in flight in this process: replay from its log, then live. */
export function liveFollow(runId: string, live: LiveRun): Follow {
  return {
    runId,
    hasAfter: (after) => !live.log.ended || live.log.lastSeq > after,
    stream: (after, on, signal) =>
      new Promise<void>((resolve) => {
        let stop = () => {};
        const end = () => {
          stop();
          signal?.removeEventListener("abort", end);
          resolve();
        };
        stop = live.log.follow(after, (s) => {
          on(s);
          if (s.event.event === "final") queueMicrotask(end);
        });
        if (live.log.ended || signal?.aborted) end();
        else signal?.addEventListener("abort", end, { once: true });
      }),
    result: () => live.done,
  };
}

/** A run that has ended: its stream as stored. */
export function storedFollow(runId: string, events: Sequenced[]): Follow {
  const final = events.at(-1)!.event;
  if (final.event !== "final") throw new Error("a stored stream ends with its final event");
  return {
    runId,
    hasAfter: (after) => events.some((s) => s.seq > after),
    async stream(after, on, signal) {
      for (const s of events) {
        if (signal?.aborted) return;
        if (s.seq > after) on(s);
      }
    },
    result: async () => final.data,
  };
}

/** A run known to the store but not (yet) to this process: the view once it can be had. */
export function awaitedFollow(runId: string, next: Promise<Follow>): Follow {
  return {
    runId,
    hasAfter: () => true,
    async stream(after, on, signal) {
      const aborted = new Promise<null>((r) => {
        if (signal?.aborted) r(null);
        signal?.addEventListener("abort", () => r(null), { once: true });
      });
      const f = await Promise.race([next, aborted]);
      if (f) await f.stream(after, on, signal);
    },
    result: () => next.then((f) => f.result()),
  };
}
