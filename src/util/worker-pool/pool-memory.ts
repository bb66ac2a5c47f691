import { type MemoryWatch, watchMemory } from "../memory-watch.ts";
import type { PoolMemoryOptions } from "./pool-config.ts";

/** A job under the pool's memory watch: where the process's memory stood when it went to its thread. */
export interface Watched {
  since: number;
  /** Order of arrival: on a tie the older job is the one that tripped. */
  seq: number;
}

/**
 * One memory watch for a whole pool, running while its threads hold jobs (one per job cost a
 * timer and a reading of the process's memory per job every 50 ms, which a crowd of runs queues
 * by the thousand). Threat: a job (a PDF or gzip bomb, a search built to hold the postings of a
 * huge collection) taking the process's memory. JSC gives a thread no heap limit of its own, so
 * the process's RSS is watched from the pool's thread (src/util/memory-watch.ts); the job that
 * has grown the most trips it, and `onOver` stops a thread, which frees its memory.
 */
export function poolMemory<T extends Watched>(
  o: Pick<PoolMemoryOptions<never>, "limit" | "rss" | "everyMs" | "ticker">,
  held: () => Iterable<T>,
  onOver: (tripped: T) => void,
) {
  const rss = o.rss ?? (() => process.memoryUsage.rss());
  // Reading the process's memory costs ~12 µs of this thread, and a crowd posts thousands of
  // jobs a second: one reading serves the posts of the next 20 ms.
  let recent = { at: Number.NEGATIVE_INFINITY, rss: 0 };
  let watch: MemoryWatch | null = null;
  const tripped = () => {
    let first: T | undefined;
    for (const j of held())
      if (!first || j.since < first.since || (j.since === first.since && j.seq < first.seq)) first = j;
    return first;
  };
  const over = () => {
    watch = null;
    const job = tripped();
    if (job) onOver(job);
  };
  const holding = () => !held()[Symbol.iterator]().next().done;
  const start = () => {
    const { limit, everyMs, ticker } = o;
    watch ??= watchMemory({ limit, everyMs, ticker, rss, from: () => tripped()?.since ?? rss() }, over);
  };
  return {
    /** Where a job posted now starts from; the watch runs from now on. */
    baseline(): number {
      const now = performance.now();
      if (now - recent.at > 20) recent = { at: now, rss: rss() };
      start();
      return recent.rss;
    },
    /** The jobs still held count their growth from now (a stopped thread's memory is handed back late). */
    restart(): void {
      const now = rss();
      for (const j of held()) j.since = now;
      if (holding()) start();
    },
    /** The threads hold nothing: the watch stops until the next job. */
    idle(): void {
      if (!watch || holding()) return;
      watch.stop();
      watch = null;
    },
  };
}
