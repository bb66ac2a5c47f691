import type { CorpusReaderSource } from "../../store/corpus-index.ts";
import { mib } from "../../util/memory-watch.ts";
import { createWorkerPool } from "../../util/worker-pool/worker-pool.ts";
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

/** The caller stopped waiting: its run was cancelled, timed out or the server is stopping. */
export class SearchAborted extends Error {}

/**
 * Searches on threads of their own, so a long one (a question of hundreds of common words
 * over a large collection) never holds the server's thread: its requests, its timers (a
 * run's deadline), its signals. The one pool lifecycle (src/util/worker-pool/), configured so:
 * each thread opens its own connection first (`open`, then `ready`) and takes one job at a time
 * from its own queue; a job goes to the thread with the fewest. A job whose caller stops
 * waiting leaves the queue, or, if running, has its thread terminated (its memory with it: the
 * search cannot be interrupted otherwise) and the rest of the queue goes to a new one. No
 * deadline: the run's own ends a search through its signal. Threat: a question built to make a
 * search hold more memory than the server has (a term in every document of a huge collection,
 * many times over); past `memoryLimit` its thread is stopped. A thread that crashes fails the
 * job it ran and is replaced; one that cannot start at all (no script, no file) makes the pool
 * run jobs in place, as before threads.
 */
export function createSearchPool(o: SearchPoolOptions): {
  run(task: SearchTask, signal?: AbortSignal): Promise<Value>;
} {
  const limit = o.memoryLimit ?? SEARCH_MEMORY;
  const threads = createWorkerPool<SearchTask, Value>({
    name: "search",
    url: o.workerUrl ?? workerUrl("corpus/search/search-worker.ts"),
    size: o.size ?? 2,
    open: { type: "open", source: o.source } satisfies SearchJob,
    message: (task, id) => ({ ...task, id }) satisfies SearchJob,
    hear: (data) => {
      const m = data as SearchReply;
      if (m.type === "ready") return m;
      if (m.ok) return { type: "value", id: m.id, value: m.value };
      return { type: "error", id: m.id, error: () => new Error(m.message) };
    },
    memory: { limit, error: () => new Error(`the search took more than ${mib(limit)} of memory: stopped`) },
    stopAbandoned: true,
    idleMs: o.idleMs ?? 60_000,
    errors: {
      crashed: (_, message) => new Error(`the search thread crashed: ${message}`),
      abandoned: () => new SearchAborted("the search was abandoned: its caller stopped waiting"),
      closed: () => new SearchAborted("the search pool was closed"),
    },
  });
  let inPlace: TaskRunner | null = null;
  const runner = () => {
    inPlace ??= o.fallback();
    return inPlace;
  };
  return {
    run(task, signal) {
      if (signal?.aborted) return Promise.reject(new SearchAborted("the search was abandoned before it began"));
      return threads.run(task, { signal, inPlace: () => runner()(task) });
    },
  };
}
