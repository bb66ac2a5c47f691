import type { CorpusDocumentInput, CorpusPutOutcome } from "../../store/types.ts";
import { mib } from "../../util/memory-watch.ts";
import type { JobTimer, WorkerPool } from "../../util/worker-pool/pool-config.ts";
import { createWorkerPool } from "../../util/worker-pool/worker-pool.ts";
import { workerUrl } from "../../util/worker-url.ts";
import type { FromWorker, ImportJob, JobOutcome, ToWorker } from "./import-messages.ts";

/** How a job ended as the queue sees it: the worker's outcome, or `stopped` by a shutdown. */
export type HostOutcome = JobOutcome | { type: "stopped" };

export interface WorkerHostOptions {
  /** The worker script; the default is resolved next to this module (also inside the binary). */
  workerUrl?: string | URL;
  /** Memory (RSS) a job may add to the process before its worker is stopped, in bytes. */
  memoryLimit: number;
  /** A job that makes no progress this long (no batch stored, no end) is stopped. */
  stallMs: number;
  /** Starts a job's stall timer and returns its cancel; tests fire it on cue. */
  stallTimer?: JobTimer;
  /** How often the job's memory is looked at (ms). */
  memoryEveryMs?: number;
  /** The process's resident memory, in bytes (tests may pass their own). */
  rss?: () => number;
}

interface HostJob {
  job: ImportJob;
  put(docs: CorpusDocumentInput[]): Promise<CorpusPutOutcome[]>;
}

/** The job was ended by a shutdown, not by its file. */
class Stopped extends Error {}

/**
 * The import worker, one job at a time, spawned on first use and let go when the queue is
 * idle: the one pool lifecycle (src/util/worker-pool/) with one thread and no fallback (an
 * import waits for a worker; it never parses on the server's thread). Threats: a PDF or gzip
 * bomb, or a parser stuck on hostile input, taking the server's memory or a core for good. A
 * job whose memory grows past `memoryLimit` above where it started (the process's RSS), or that
 * makes no progress for `stallMs` (each batch it stores starts the deadline again), has its
 * worker terminated — its memory is freed — and fails with the reason.
 */
export class WorkerHost {
  private readonly threads: WorkerPool<HostJob, HostOutcome>;

  constructor(o: WorkerHostOptions) {
    const failed = (reason: string) => () => new Error(reason);
    this.threads = createWorkerPool<HostJob, HostOutcome>({
      name: "import",
      url: o.workerUrl ?? workerUrl("collections/import/import-worker.ts"),
      size: 1,
      message: (j) => ({ type: "job", job: j.job }) satisfies ToWorker,
      hear: (data) => {
        const m = data as FromWorker;
        if (m.type !== "put") return { type: "value", value: m };
        // A batch to store: its outcome (or its refusal) is the worker's answer.
        const answer = async (j: HostJob): Promise<ToWorker> => {
          try {
            return { type: "stored", outcomes: await j.put(m.docs) };
          } catch (err) {
            return { type: "refused", reason: (err as Error).message };
          }
        };
        return { type: "progress", answer };
      },
      deadline: { ms: o.stallMs, timer: o.stallTimer, error: failed(`no progress for ${o.stallMs / 1000} s: stopped`) },
      memory: {
        limit: o.memoryLimit,
        rss: o.rss,
        everyMs: o.memoryEveryMs,
        error: failed(
          `reading it took more than ${mib(o.memoryLimit)} of memory (a PDF or gzip bomb?): stopped, not imported`,
        ),
      },
      errors: {
        crashed: (_, message) => new Error(`the importer crashed (${message}): not imported`),
        abandoned: () => new Stopped(),
        closed: () => new Stopped(),
      },
    });
  }

  /** Runs a job; `put` stores a batch (its throw is the batch's refusal, told to the worker). */
  run(job: ImportJob, put: HostJob["put"]): Promise<HostOutcome> {
    return this.threads
      .run({ job, put })
      .catch(
        (e: Error): HostOutcome => (e instanceof Stopped ? { type: "stopped" } : { type: "failed", reason: e.message }),
      );
  }

  /** Ends the job in flight (if any) as `stopped`, terminating its worker. */
  halt(): void {
    this.threads.close();
  }

  /** Lets the worker go (the queue is idle): its heap is freed, the next job spawns another. */
  drop(): void {
    this.threads.letGo();
  }
}
