import { endThread, enlist } from "./pool-census.ts";
import { type WorkerPool, type WorkerPoolConfig, wallClockTimer } from "./pool-config.ts";
import { poolMemory } from "./pool-memory.ts";
import { busy, keep, newJob, type PoolJob, startThread, type Thread } from "./pool-thread.ts";

type Job<J, R> = PoolJob<J, R>;

/**
 * Jobs on worker threads, with one lifecycle for every pool (docs/decisions/0132-one-worker-pool.md):
 * a thread is started on first use (an idle server holds none) in the least busy slot; a job
 * past its deadline, or whose growth of the process's memory passes the bound, has its thread
 * terminated (the only way to stop it) and fails; a thread that crashes fails the jobs it held
 * and its queue goes to a new one; a thread that dies before saying anything (or cannot be
 * constructed) means threads cannot start here: its jobs, and every later one, run in place
 * where the caller gave a way to. The errors are the pool's (`errors`).
 */
export function createWorkerPool<J, R>(c: WorkerPoolConfig<J, R>): WorkerPool<J, R> {
  const perThread = c.perThread ?? 1;
  const slots: (Thread<J, R> | undefined)[] = Array.from({ length: c.size });
  let nextId = 1;
  let nextSeq = 1;
  let threadless = false;
  const held = function* () {
    for (const t of slots) if (t) yield* t.held.values();
  };
  const memory = c.memory && poolMemory(c.memory, held, (tripped) => overMemory(tripped));
  const tally = { ok: 0, failed: 0, restarts: 0 };
  const live = (t: Thread<J, R>) => slots[t.at] === t;

  const drop = (t: Thread<J, R>) => {
    if (!live(t)) return;
    slots[t.at] = undefined;
    clearTimeout(t.idle);
    endThread(t.worker);
  };
  /** Runs a job in place, or fails it, where no thread can take it. */
  const threadlessRun = (j: Job<J, R>, why: string) => {
    if (j.settled) return;
    if (j.inPlace) j.inPlace().then(j.resolve, j.reject);
    else j.reject(c.errors.crashed(j.input, why));
  };
  const start = (at: number, queue: Job<J, R>[] = []): Thread<J, R> | null => {
    try {
      const t: Thread<J, R> = startThread(at, queue, {
        url: c.url,
        open: c.open,
        onMessage: (data) => hear(t, data),
        onCrash: (message) => crash(t, message),
      });
      slots[at] = t;
      for (const j of queue) j.thread = t;
      return t;
    } catch (e) {
      // The Worker constructor refused the script: threads cannot start here.
      threadless = true;
      for (const j of queue) threadlessRun(j, `no worker: ${(e as Error).message}`);
      return null;
    }
  };
  /** Hands a job to the least busy slot's thread, started if it has none. */
  const place = (j: Job<J, R>) => {
    const load = (t?: Thread<J, R>) => (t ? t.held.size + t.queue.length : 0);
    let best = 0;
    for (let i = 1; i < c.size; i++) if (load(slots[i]) < load(slots[best])) best = i;
    const t = slots[best] ?? start(best, [j]);
    if (!t) return;
    if (j.thread !== t) {
      j.thread = t;
      t.queue.push(j);
    }
    pump(t);
  };
  const pump = (t: Thread<J, R>) => {
    while (t.ready && t.held.size < perThread && t.queue.length) post(t, t.queue.shift()!);
    keep(t, c.idleMs, (idle) => !busy(idle) && drop(idle));
  };
  const arm = (t: Thread<J, R>, j: Job<J, R>) => {
    j.cancelDeadline();
    if (!c.deadline) return;
    j.cancelDeadline = (c.deadline.timer ?? wallClockTimer)(
      () => retire(t, (x) => c.deadline!.error(x.input)),
      c.deadline.ms,
    );
  };
  const post = (t: Thread<J, R>, j: Job<J, R>) => {
    j.id = nextId++;
    t.held.set(j.id, j);
    arm(t, j);
    if (memory) j.since = memory.baseline();
    // Copied, not transferred: the caller may still hold the bytes.
    t.worker.postMessage(c.message(j.input, j.id));
  };
  /**
   * Terminates `t`: each job it held fails with `fate`'s error or (null) goes to another thread
   * once; its queue goes to a new thread in its slot.
   */
  const retire = (t: Thread<J, R>, fate: (j: Job<J, R>) => Error | null, restart = true) => {
    if (!live(t)) return;
    if (restart) tally.restarts++;
    drop(t);
    const again: Job<J, R>[] = [];
    for (const j of t.held.values()) {
      j.cancelDeadline();
      const error = fate(j);
      if (error) j.reject(error);
      else again.push(j);
    }
    t.held.clear();
    memory?.idle();
    if (t.queue.length) {
      const next = start(t.at, t.queue);
      if (next) pump(next);
    }
    for (const j of again) {
      j.retried = true;
      j.thread = undefined;
      place(j);
    }
  };
  const hear = (t: Thread<J, R>, data: unknown) => {
    // A thread already let go has nothing left to answer.
    if (!live(t)) return;
    t.started = true;
    const h = c.hear(data);
    if (h.type === "ready") t.ready = true;
    const j = h.type === "ready" ? undefined : h.id === undefined ? t.held.values().next().value : t.held.get(h.id);
    if (j && h.type === "progress") {
      arm(t, j);
      // Its answer goes back only while the thread still holds the job.
      h.answer?.(j.input).then((m) => live(t) && t.held.get(j.id) === j && t.worker.postMessage(m));
      return;
    }
    if (j && h.type !== "ready") {
      t.held.delete(j.id);
      j.cancelDeadline();
      memory?.idle();
      if (h.type === "value") j.resolve(h.value);
      else if (h.type === "error") j.reject(h.error(j.input));
    }
    pump(t);
  };
  const crash = (t: Thread<J, R>, message: string) => {
    if (!live(t)) return;
    if (t.started) return retire(t, (j) => c.errors.crashed(j.input, message));
    // It died before saying anything (a missing script): threads cannot start here.
    threadless = true;
    drop(t);
    for (const j of t.held.values()) j.cancelDeadline();
    const jobs = [...t.held.values(), ...t.queue];
    t.held.clear();
    memory?.idle();
    for (const j of jobs) threadlessRun(j, message);
  };
  /** Memory grew past the bound: `victim`'s thread is stopped; its other jobs get one more try. */
  const overMemory = (tripped: Job<J, R>) => {
    const all = [...held()].sort((a, b) => a.seq - b.seq);
    const input =
      c.memory?.victim?.(
        tripped.input,
        all.map((j) => j.input),
      ) ?? tripped.input;
    const victim = all.find((j) => j.input === input) ?? tripped;
    if (victim.thread) retire(victim.thread, (j) => (j === victim || j.retried ? c.memory!.error(j.input) : null));
    memory?.restart();
  };
  /** The caller stopped waiting: the job leaves its queue, or its thread (`stopAbandoned`). */
  const abandon = (j: Job<J, R>) => {
    const t = j.thread;
    if (t && live(t)) {
      const at = t.queue.indexOf(j);
      if (at >= 0) t.queue.splice(at, 1);
      else if (c.stopAbandoned && t.held.get(j.id) === j)
        retire(t, (x) => (x === j ? c.errors.abandoned(x.input) : null));
      if (live(t)) pump(t);
    }
    j.reject(c.errors.abandoned(j.input));
  };

  const pool: WorkerPool<J, R> = {
    run(input, o = {}) {
      const { signal, inPlace } = o;
      if (signal?.aborted) return Promise.reject(c.errors.abandoned(input));
      if (threadless && inPlace) return inPlace();
      return new Promise<R>((resolve, reject) => {
        const job = newJob<J, R>(
          input,
          nextSeq++,
          o,
          (v) => {
            tally.ok++;
            resolve(v);
          },
          (e) => {
            if (!o.signal?.aborted) tally.failed++;
            reject(e);
          },
          () => abandon(job),
        );
        place(job);
      });
    },
    threads: () => slots.filter(Boolean).length,
    letGo: () => {
      for (const t of slots) if (t && !busy(t)) drop(t);
    },
    close: () => {
      for (const t of slots) {
        if (!t) continue;
        const queued = t.queue;
        t.queue = [];
        retire(t, (j) => c.errors.closed(j.input), false);
        for (const j of queued) j.reject(c.errors.closed(j.input));
      }
    },
  };
  enlist(pool, () => {
    let threads = 0;
    let busyNow = 0;
    let queued = 0;
    for (const t of slots) {
      if (!t) continue;
      threads++;
      if (t.held.size) busyNow++;
      queued += t.queue.length;
    }
    return { pool: c.name, size: c.size, threads, busy: busyNow, queued, ...tally };
  });
  return pool;
}
