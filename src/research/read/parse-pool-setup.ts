// The parse pool's settings and its threads: the one pool lifecycle (src/util/worker-pool/)
// told the parse worker's script, messages and errors.

import { availableParallelism } from "node:os";
import { mib, type Ticker } from "../../util/memory-watch.ts";
import type { JobTimer } from "../../util/worker-pool/pool-config.ts";
import { createWorkerPool } from "../../util/worker-pool/worker-pool.ts";
import { workerUrl } from "../../util/worker-url.ts";
import { FetchError, type FetchFailure } from "./fetch-error.ts";
import type { ParseJob, ParseReply, PoolJob } from "./parse-worker.ts";

/** Settings of the parse pool. */
export interface ParsePoolOptions {
  /** Worker threads; default: one less than the CPUs (at least 1, at most 4). */
  size?: number;
  /** A job running longer is a runaway parse: its worker is terminated and replaced. */
  jobTimeoutMs?: number;
  /** Memory (RSS) the process may grow by while a job runs before a PDF job's worker is stopped, in bytes. */
  memoryLimit?: number;
  /** The process's resident memory, in bytes; tests pass their own. */
  rss?: () => number;
  /** Runs the memory checks; tests pass their own to check on cue. */
  memoryTicker?: Ticker;
  /** The worker script; the default is resolved next to this module (also inside the binary). */
  workerUrl?: string | URL;
  /** Told of every parse: where it ran and whether it produced text. */
  onParse?: (where: "worker" | "inline", ok: boolean) => void;
  /** Starts a job's time limit and returns its cancel; tests replace it to overrun a job without waiting. */
  jobTimer?: JobTimer;
}

/** A parse this long is a runaway (hostile nesting, a pathological PDF), not a slow page. */
export const PARSE_JOB_MS = 20_000;
/** PARSE_MEMORY_MB's default (README "Configuration"), for pools built without the setting. */
export const PARSE_MEMORY_BYTES = 256 * 1048576;

/**
 * The parse threads. A thread takes many jobs at once, each with its deadline; an overrun
 * terminates the thread and fails every job it held. Memory past the limit stops the thread of
 * the PDF job under way longest (HTML is bounded by the page cap; a bomb grows from its start),
 * else of the job that has grown the most (docs/decisions/0098-pdf-parse-watchdog.md); that
 * thread's other jobs get one more try on a fresh one.
 */
export function parseThreads(o: ParsePoolOptions) {
  const jobTimeoutMs = o.jobTimeoutMs ?? PARSE_JOB_MS;
  const memoryLimit = o.memoryLimit ?? PARSE_MEMORY_BYTES;
  const fail = (why: FetchFailure, message: string) => (job: PoolJob) => new FetchError(why, job.url, message);
  return createWorkerPool<PoolJob, unknown>({
    name: "parse",
    url: o.workerUrl ?? workerUrl("research/read/parse-worker.ts"),
    size: o.size ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    perThread: Number.POSITIVE_INFINITY,
    message: (job, id) => ({ ...job, id }) satisfies ParseJob,
    hear: (data) => {
      const m = data as ParseReply;
      if (m.ok) return { type: "value", id: m.id, value: m.value };
      return { type: "error", id: m.id, error: (job) => new FetchError(m.reason as FetchFailure, job.url, m.message) };
    },
    deadline: {
      ms: jobTimeoutMs,
      timer: o.jobTimer,
      error: fail("timeout", `parsing took longer than ${jobTimeoutMs} ms`),
    },
    memory: {
      limit: memoryLimit,
      rss: o.rss,
      ticker: o.memoryTicker,
      victim: (tripped, held) => held.find((j) => j.kind === "pdf") ?? tripped,
      error: fail("too_large", `reading it took more than ${mib(memoryLimit)} of memory (a PDF bomb?)`),
    },
    errors: {
      crashed: (job, message) => new FetchError("unsupported_type", job.url, `the parser crashed: ${message}`),
      abandoned: fail("aborted", "aborted"),
      closed: fail("aborted", "the parser pool was closed"),
    },
  });
}
