// One thread of a pool and the jobs it holds: started, kept alive while busy, let go when idle.

import { newThread } from "./pool-census.ts";
import type { RunOptions } from "./pool-config.ts";

/** A job as the pool holds it. */
export interface PoolJob<J, R> {
  input: J;
  /** Order of arrival: the lowest is the job waiting longest. */
  seq: number;
  /** Its id on its thread (0 until posted). */
  id: number;
  /** The thread whose queue, or hands, hold it. */
  thread?: Thread<J, R>;
  /** The process's memory when it went to its thread. */
  since: number;
  /** Set once it was moved off a thread stopped for another job. */
  retried: boolean;
  settled: boolean;
  cancelDeadline(): void;
  /** Runs it on the calling thread where threads cannot start; absent: it fails instead. */
  inPlace?: () => Promise<R>;
  resolve(v: R): void;
  reject(e: Error): void;
}

export interface Thread<J, R> {
  worker: Worker;
  /** Its slot in the pool. */
  at: number;
  /** Takes jobs (after its `ready`, for a pool with `open`). */
  ready: boolean;
  /** It said something: a thread that dies before it cannot start here. */
  started: boolean;
  queue: PoolJob<J, R>[];
  held: Map<number, PoolJob<J, R>>;
  idle?: ReturnType<typeof setTimeout>;
}

export interface ThreadHooks {
  url: string | URL;
  open?: unknown;
  onMessage(data: unknown): void;
  onCrash(message: string): void;
}

/** Starts a thread for slot `at` (throws where the Worker constructor refuses the script). */
export function startThread<J, R>(at: number, queue: PoolJob<J, R>[], h: ThreadHooks): Thread<J, R> {
  const worker = newThread(new Worker(h.url, { smol: true } as WorkerOptions));
  const t: Thread<J, R> = { worker, at, ready: h.open === undefined, started: false, queue, held: new Map() };
  worker.onmessage = (e: MessageEvent) => h.onMessage(e.data);
  worker.onerror = (e) => {
    // Handled here: not reported again as the process's uncaught error.
    e.preventDefault?.();
    h.onCrash(e.message);
  };
  if (h.open !== undefined) worker.postMessage(h.open);
  return t;
}

export const busy = <J, R>(t: Thread<J, R>) => t.held.size + t.queue.length > 0;

/**
 * A thread keeps the process alive while it holds a job (a CLI waiting for its answer), never
 * when idle: then, after `idleMs` (if set), it is let go by `letGo`, its memory freed.
 */
export function keep<J, R>(t: Thread<J, R>, idleMs: number | undefined, letGo: (t: Thread<J, R>) => void): void {
  clearTimeout(t.idle);
  const w = t.worker as Worker & { ref?(): void; unref?(): void };
  if (busy(t)) return void w.ref?.();
  w.unref?.();
  if (idleMs === undefined) return;
  t.idle = setTimeout(() => letGo(t), idleMs);
  (t.idle as { unref?(): void }).unref?.();
}

/** A job for `input`, settled once; `signal`'s abort calls `onAbort`, and no more once it is settled. */
export function newJob<J, R>(
  input: J,
  seq: number,
  o: RunOptions<R>,
  resolve: (v: R) => void,
  reject: (e: Error) => void,
  onAbort: () => void,
): PoolJob<J, R> {
  const done =
    <A>(f: (a: A) => void) =>
    (a: A) => {
      if (job.settled) return;
      job.settled = true;
      o.signal?.removeEventListener("abort", onAbort);
      f(a);
    };
  const job: PoolJob<J, R> = {
    input,
    seq,
    id: 0,
    since: 0,
    retried: false,
    settled: false,
    cancelDeadline: () => {},
    inPlace: o.inPlace,
    resolve: done(resolve),
    reject: done(reject),
  };
  o.signal?.addEventListener("abort", onAbort, { once: true });
  return job;
}
