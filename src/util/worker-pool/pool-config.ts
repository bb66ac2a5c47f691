// What a worker pool is told: its script, its size, its deadline and memory bound, how to read
// its threads' messages and the errors its jobs fail with. Each pool of the product is one of
// these (src/research/read/parse-pool.ts, src/corpus/search/search-pool.ts,
// src/collections/import/worker-host.ts); the lifecycle itself is worker-pool.ts.

import type { Ticker } from "../memory-watch.ts";

/** Starts a job's deadline and returns its cancel; tests pass their own to overrun a job on cue. */
export type JobTimer = (onOverrun: () => void, ms: number) => () => void;

export const wallClockTimer: JobTimer = (onOverrun, ms) => {
  const t = setTimeout(onOverrun, ms);
  return () => clearTimeout(t);
};

/**
 * A thread's message as the pool reads it. `id` names the job (absent: the thread's only job).
 * `ready`: the thread opened what `open` asked for and takes jobs now. `progress`: the job moves
 * (its deadline starts again); `answer`, if given, is posted back to the thread once it settles,
 * while the thread still holds the job.
 */
export type Heard<J, R> =
  | { type: "ready" }
  | { type: "value"; id?: number; value: R }
  | { type: "error"; id?: number; error: (job: J) => Error }
  | { type: "progress"; id?: number; answer?: (job: J) => Promise<unknown> };

/** Why a job failed, in the pool's own words: each pool makes its own error (its type, its message). */
export interface PoolErrors<J> {
  /** Its thread died (`message`: the thread's error), or no thread could start and it has no fallback. */
  crashed(job: J, message: string): Error;
  /** Its caller stopped waiting. */
  abandoned(job: J): Error;
  /** The pool was closed while it waited or ran. */
  closed(job: J): Error;
}

export interface WorkerPoolConfig<J, R> {
  /** The pool's name in /metrics (`pool` label): parse, search, import. */
  name: string;
  /** The worker script (src/util/worker-url.ts finds one in a checkout or inside the binary). */
  url: string | URL;
  /** Threads at most. */
  size: number;
  /** Jobs a thread holds at once; the rest wait in its queue (default 1). */
  perThread?: number;
  /** Posted to each new thread first; jobs wait until the thread answers `ready`. */
  open?: unknown;
  /** The message that hands `job` to a thread; its answer names `id`. */
  message(job: J, id: number): unknown;
  /** Reads a thread's message. */
  hear(data: unknown): Heard<J, R>;
  /**
   * A job (or, with `progress`, a step of it) running longer has its thread terminated (the only
   * way to stop it) and fails with `error`.
   */
  deadline?: { ms: number; timer?: JobTimer; error(job: J): Error };
  /** Growth of the process's memory the jobs under way may cause before a thread is stopped. */
  memory?: PoolMemoryOptions<J>;
  /** A job whose caller stops waiting stops its thread (true), else its answer is dropped when it comes. */
  stopAbandoned?: boolean;
  /** A thread holding nothing this long is let go; without it, idle threads stay. */
  idleMs?: number;
  errors: PoolErrors<J>;
}

export interface PoolMemoryOptions<J> {
  /** Bytes the process's resident memory may grow by above a job's start. */
  limit: number;
  /** The process's resident memory, in bytes (default process.memoryUsage.rss; tests pass their own). */
  rss?: () => number;
  /** How often memory is looked at (ms, default 50). */
  everyMs?: number;
  ticker?: Ticker;
  /** The job to stop when `tripped` (the one that has grown the most) is over; default `tripped`. */
  victim?(tripped: J, held: J[]): J;
  /** The stopped job's error. */
  error(job: J): Error;
}

/** How a job is run: `signal` abandons it (see `stopAbandoned`); `inPlace` runs it on the calling thread where threads cannot start here. */
export interface RunOptions<R> {
  signal?: AbortSignal;
  inPlace?: () => Promise<R>;
}

/** A pool of worker threads (worker-pool.ts). */
export interface WorkerPool<J, R> {
  /** Runs `job` on a thread, or in place where threads cannot start and `o.inPlace` says how. */
  run(job: J, o?: RunOptions<R>): Promise<R>;
  /** Threads running now. */
  threads(): number;
  /** Lets idle threads go (their memory freed); the next job starts one. */
  letGo(): void;
  /** Stops every thread; the jobs held or queued fail with `closed`. The next job starts a thread again. */
  close(): void;
}
