/** Starts a repeating check and returns its stop; tests pass their own to tick on cue. */
export type Ticker = (tick: () => void, ms: number) => () => void;

export interface MemoryWatchOptions {
  /** Growth of the process's resident memory above the baseline that trips the watch, in bytes. */
  limit: number;
  /** The process's resident memory, in bytes (default process.memoryUsage.rss; tests pass their own). */
  rss?: () => number;
  /** How often memory is looked at (ms). */
  everyMs?: number;
  ticker?: Ticker;
  /** Where growth counts from, read at each look (default: the reading when the watch started). */
  from?: () => number;
}

export interface MemoryWatch {
  stop(): void;
}

export const intervalTicker: Ticker = (tick, ms) => {
  const t = setInterval(tick, ms);
  return () => clearInterval(t);
};

export const mib = (n: number) => `${Math.round(n / 1048576)} MiB`;

/**
 * Watches how far the process's resident memory grows above where it stood when the watch
 * started, and calls `onOver` once it grows past `limit` (then stops). Threat: a PDF or gzip
 * bomb parsed on a worker thread taking the process's memory. JSC gives a worker no heap limit
 * of its own, so the whole process's RSS is watched from the thread that owns the worker,
 * which the worker's parsing never blocks; stopping the worker frees its memory.
 */
export function watchMemory(o: MemoryWatchOptions, onOver: (grown: number) => void): MemoryWatch {
  const rss = o.rss ?? (() => process.memoryUsage.rss());
  const start = o.from ? 0 : rss();
  const from = o.from ?? (() => start);
  let stopped = false;
  const cancel = (o.ticker ?? intervalTicker)(() => {
    if (stopped) return;
    const grown = rss() - from();
    if (grown <= o.limit) return;
    watch.stop();
    onOver(grown);
  }, o.everyMs ?? 50);
  const watch: MemoryWatch = {
    stop: () => {
      if (stopped) return;
      stopped = true;
      cancel();
    },
  };
  return watch;
}
