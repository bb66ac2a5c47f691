// Every pool of threads in the process, counted for /metrics and ended by `serve`'s stop
// (docs/decisions/0151-metrics-of-the-process-and-its-threads.md,
// docs/decisions/0150-healthz-in-a-drain-and-a-prompt-exit.md).

/** One pool's figures at a scrape. Pools of one name (a test process builds many) add up. */
export interface PoolCount {
  pool: string;
  /** Threads at most. */
  size: number;
  /** Threads running now. */
  threads: number;
  /** Threads holding a job now. */
  busy: number;
  /** Jobs waiting for a thread. */
  queued: number;
  /** Jobs that ended with an answer, and with an error (crash, deadline, memory, closed; not abandoned). */
  ok: number;
  failed: number;
  /** Threads stopped and replaced: a crash, a job past its deadline or over the memory bound, an abandoned job. */
  restarts: number;
}

interface Enlisted {
  /** Weak: a pool nobody holds any more (a test's server, gone) leaves the census with it. */
  pool: WeakRef<{ close(): void }>;
  count(): PoolCount;
}

const pools = new Set<Enlisted>();
/** Each thread's end, heard from its start: a thread that crashed has said `close` already. */
const ends = new WeakMap<Worker, Promise<void>>();
/** Threads whose end was heard. */
const gone = new WeakSet<Worker>();
/** Threads told to stop and not yet gone. */
const ending = new Set<Promise<void>>();

/** Counts `pool` in the census while its owner holds it; `count` must not hold the pool itself. */
export function enlist(pool: { close(): void }, count: () => PoolCount): void {
  pools.add({ pool: new WeakRef(pool), count });
}

/** A thread just made: its end is listened for now, so a stop can wait for it later. */
export function newThread(worker: Worker): Worker {
  const end = new Promise<void>((resolve) =>
    worker.addEventListener(
      "close",
      () => {
        gone.add(worker);
        resolve();
      },
      { once: true },
    ),
  );
  ends.set(worker, end);
  return worker;
}

/** Stops `worker`, and counts it among the threads a stop waits for until it has ended. */
export function endThread(worker: Worker): void {
  const end = ends.get(worker);
  if (end && !gone.has(worker) && !ending.has(end)) {
    ending.add(end);
    void end.then(() => ending.delete(end));
    // An idle thread is unref'd: a stop waiting for its end must keep the process up meanwhile.
    (worker as Worker & { ref?(): void }).ref?.();
  }
  worker.terminate();
}

function live(): { pool: { close(): void }; count(): PoolCount }[] {
  const out: { pool: { close(): void }; count(): PoolCount }[] = [];
  for (const e of pools) {
    const pool = e.pool.deref();
    if (pool) out.push({ pool, count: e.count });
    else pools.delete(e);
  }
  return out;
}

/** Each pool name's figures, in name order. */
export function poolCounts(): PoolCount[] {
  const by = new Map<string, PoolCount>();
  for (const p of live()) {
    const c = p.count();
    const sum = by.get(c.pool);
    if (!sum) by.set(c.pool, { ...c });
    else for (const k of ["size", "threads", "busy", "queued", "ok", "failed", "restarts"] as const) sum[k] += c[k];
  }
  return [...by.values()].sort((a, b) => a.pool.localeCompare(b.pool));
}

/**
 * Closes every pool (their jobs fail `closed`) and waits until every thread told to stop has
 * ended: a thread still alive at `process.exit` holds the exit until it can be stopped.
 * Returns the threads still running (0 unless a job started one meanwhile).
 */
export async function closeAllPools(): Promise<number> {
  for (const p of live()) p.pool.close();
  await Promise.all(ending);
  return live().reduce((n, p) => n + p.count().threads, 0);
}
