import type { CorpusReaderSource } from "../../store/corpus-index.ts";
import { type MemoryWatch, mib, watchMemory } from "../../util/memory-watch.ts";
import { workerUrl } from "../../util/worker-url.ts";
import type { SearchJob, SearchReply, SearchTask } from "./search-messages.ts";
import type { TaskRunner } from "./search-task.ts";

export interface SearchPoolOptions {
  /** Where the search threads open the collections. */
  source: CorpusReaderSource;
  /** Runs a job on the calling thread when search threads cannot start here. */
  fallback: () => TaskRunner;
  /** Search threads: two, so one long search never holds another up. */
  size?: number;
  /** A thread idle this long is let go (its connection and memory freed); the next search starts one. */
  idleMs?: number;
  /** The worker script; the default is resolved next to this module (also inside the binary). */
  workerUrl?: string | URL;
  /** Growth of the process's memory a running search may cause before its thread is stopped (bytes). */
  memoryLimit?: number;
}

/**
 * SEARCH_MEMORY's bound: far above what a search needs (its postings are one entry per document
 * of the searched collections, for at most 32 terms and feedback's 40, and the remembered ones
 * are capped near 40 MB, postings-memory.ts), far below what the server can lose.
 */
export const SEARCH_MEMORY = 512 * 1048576;

type Value = Awaited<ReturnType<TaskRunner>>;
interface Job {
  task: SearchTask;
  resolve(v: Value): void;
  reject(e: Error): void;
}
interface Slot {
  worker: Worker;
  ready: boolean;
  queue: Job[];
  running: (Job & { id: number }) | null;
  idle?: ReturnType<typeof setTimeout>;
  watch?: MemoryWatch;
}

/** The caller stopped waiting: its run was cancelled, timed out or the server is stopping. */
export class SearchAborted extends Error {}

const defaultWorkerUrl = () => workerUrl(import.meta.url, "corpus/search/search-worker.ts", "./search-worker.ts");

/**
 * Searches on threads of their own, so a long one (a question of hundreds of common words
 * over a large collection) never holds the server's thread: its requests, its timers (a
 * run's deadline), its signals. Each thread takes one job at a time from its own queue; a
 * job goes to the thread with the fewest. A job whose caller stops waiting leaves the queue,
 * or, if running, has its thread terminated (its memory with it: the search cannot be
 * interrupted otherwise) and the rest of the queue goes to a new one. A thread that crashes
 * fails the job it ran and is replaced; one that cannot start at all (no script, no file)
 * makes the pool run jobs in place, as before threads.
 */
export function createSearchPool(o: SearchPoolOptions): {
  run(task: SearchTask, signal?: AbortSignal): Promise<Value>;
} {
  const size = o.size ?? 2;
  const slots: (Slot | undefined)[] = Array.from({ length: size });
  let nextId = 1;
  let inPlace: TaskRunner | null = null;

  const spawn = (i: number, queue: Job[] = []): Slot => {
    const worker = new Worker(o.workerUrl ?? defaultWorkerUrl(), { smol: true } as WorkerOptions);
    const slot: Slot = { worker, ready: false, queue, running: null };
    worker.onmessage = (e: MessageEvent<SearchReply>) => {
      const m = e.data;
      if (m.type === "ready") slot.ready = true;
      else if (slot.running?.id === m.id) {
        const job = slot.running;
        slot.running = null;
        slot.watch?.stop();
        if (m.ok) job.resolve(m.value);
        else job.reject(new Error(m.message));
      }
      pump(slot);
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      // A thread already let go (its slot taken by a new one) has nothing left to fail.
      if (slots[i] !== slot) return;
      const jobs = [...(slot.running ? [slot.running] : []), ...slot.queue];
      retire(i);
      if (!slot.ready) {
        // It never opened its connection: threads cannot start here; every job runs in place.
        inPlace ??= o.fallback();
        for (const j of jobs) settle(j, inPlace(j.task));
        return;
      }
      if (slot.running) slot.running.reject(new Error(`the search thread crashed: ${e.message}`));
      if (slot.queue.length) pump(spawn(i, slot.queue));
    };
    worker.postMessage({ type: "open", source: o.source } satisfies SearchJob);
    slots[i] = slot;
    return slot;
  };

  const retire = (i: number) => {
    const s = slots[i];
    if (!s) return;
    clearTimeout(s.idle);
    s.watch?.stop();
    slots[i] = undefined;
    s.worker.terminate();
  };

  const pump = (slot: Slot) => {
    clearTimeout(slot.idle);
    if (!slot.ready || slot.running) return;
    const job = slot.queue.shift();
    // A thread keeps the process alive while it has a job (a CLI's search), never when idle.
    const w = slot.worker as Worker & { ref?(): void; unref?(): void };
    if (job) w.ref?.();
    else w.unref?.();
    if (!job) {
      const i = slots.indexOf(slot);
      slot.idle = setTimeout(() => retire(i), o.idleMs ?? 60_000);
      (slot.idle as { unref?(): void }).unref?.();
      return;
    }
    slot.running = { ...job, id: nextId++ };
    slot.watch = watchRunning(slot);
    slot.worker.postMessage({ ...job.task, id: slot.running.id } satisfies SearchJob);
  };

  /**
   * Threat: a question built to make a search hold more memory than the server has (a term in
   * every document of a huge collection, many times over) taking the whole process down. JSC
   * gives a thread no heap limit of its own, so the process's growth is watched from here while
   * the job runs (util/memory-watch.ts); past the bound the thread is stopped, which frees it.
   */
  const watchRunning = (slot: Slot): MemoryWatch => {
    const limit = o.memoryLimit ?? SEARCH_MEMORY;
    return watchMemory({ limit }, () => {
      const i = slots.indexOf(slot);
      const job = slot.running;
      if (i < 0 || !job) return;
      retire(i);
      job.reject(new Error(`the search took more than ${mib(limit)} of memory: stopped`));
      if (slot.queue.length) pump(spawn(i, slot.queue));
    });
  };

  const settle = (job: Job, p: Promise<Value>) => p.then(job.resolve, job.reject);

  const abandon = (job: Job) => {
    for (const [i, slot] of slots.entries()) {
      if (!slot) continue;
      const at = slot.queue.indexOf(job);
      if (at >= 0) slot.queue.splice(at, 1);
      else if (slot.running?.task === job.task) {
        // Terminating is the only way to stop a search mid-way; the others waiting get a new thread.
        retire(i);
        if (slot.queue.length) pump(spawn(i, slot.queue));
      }
    }
    job.reject(new SearchAborted("the search was abandoned: its caller stopped waiting"));
  };

  return {
    run(task, signal) {
      if (signal?.aborted) return Promise.reject(new SearchAborted("the search was abandoned before it began"));
      if (inPlace) return inPlace(task);
      return new Promise<Value>((resolve, reject) => {
        const onAbort = () => abandon(job);
        const done =
          <A>(f: (a: A) => void) =>
          (a: A) => {
            signal?.removeEventListener("abort", onAbort);
            f(a);
          };
        const job: Job = { task, resolve: done(resolve), reject: done(reject) };
        signal?.addEventListener("abort", onAbort, { once: true });
        let best = 0;
        const load = (s?: Slot) => (s ? s.queue.length + (s.running ? 1 : 0) : 0);
        for (let i = 1; i < size; i++) if (load(slots[i]) < load(slots[best])) best = i;
        let slot: Slot;
        try {
          slot = slots[best] ?? spawn(best);
        } catch {
          // No thread can start here (the Worker constructor refused the script): jobs run in place.
          inPlace ??= o.fallback();
          return settle(job, inPlace(task));
        }
        slot.queue.push(job);
        pump(slot);
      });
    },
  };
}
