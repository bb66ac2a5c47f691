import type { CorpusDocumentInput, CorpusPutOutcome } from "../../store/types.ts";
import { mib, watchMemory } from "../../util/memory-watch.ts";
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
  stallTimer?: (onStall: () => void, ms: number) => () => void;
  /** How often the job's memory is looked at (ms). */
  memoryEveryMs?: number;
  /** The process's resident memory, in bytes (tests may pass their own). */
  rss?: () => number;
}

const wallClockTimer = (onStall: () => void, ms: number) => {
  const t = setTimeout(onStall, ms);
  return () => clearTimeout(t);
};

const defaultWorkerUrl = () => workerUrl(import.meta.url, "collections/import/import-worker.ts", "./import-worker.ts");

/**
 * The import worker, one job at a time, spawned on first use and let go when the queue is
 * idle. Threats: a PDF or gzip bomb, or a parser stuck on hostile input, taking the server's
 * memory or a core for good. A job whose memory grows past `memoryLimit` above where it started
 * (the process's RSS, watched by src/util/memory-watch.ts), or that makes no progress for
 * `stallMs`, has its worker terminated — its memory is freed — and fails with the reason.
 */
export class WorkerHost {
  private worker: Worker | null = null;
  private stop: (() => void) | null = null;

  constructor(private readonly o: WorkerHostOptions) {}

  /** Runs a job; `put` stores a batch (its throw is the batch's refusal, told to the worker). */
  run(job: ImportJob, put: (docs: CorpusDocumentInput[]) => Promise<CorpusPutOutcome[]>): Promise<HostOutcome> {
    const worker = this.spawn();
    return new Promise<HostOutcome>((resolve) => {
      let cancelStall = () => {};
      const armStall = () => {
        cancelStall();
        cancelStall = (this.o.stallTimer ?? wallClockTimer)(
          () => end({ type: "failed", reason: `no progress for ${this.o.stallMs / 1000} s: stopped` }, true),
          this.o.stallMs,
        );
      };
      const watch = watchMemory({ limit: this.o.memoryLimit, rss: this.o.rss, everyMs: this.o.memoryEveryMs }, () =>
        end(
          {
            type: "failed",
            reason: `reading it took more than ${mib(this.o.memoryLimit)} of memory (a PDF or gzip bomb?): stopped, not imported`,
          },
          true,
        ),
      );
      let ended = false;
      const end = (outcome: HostOutcome, kill: boolean) => {
        if (ended) return;
        ended = true;
        cancelStall();
        watch.stop();
        this.stop = null;
        if (kill) this.drop();
        resolve(outcome);
      };
      this.stop = () => end({ type: "stopped" }, true);
      worker.onmessage = async (e: MessageEvent<FromWorker>) => {
        const m = e.data;
        if (m.type !== "put") return end(m, false);
        armStall();
        let reply: ToWorker;
        try {
          reply = { type: "stored", outcomes: await put(m.docs) };
        } catch (err) {
          reply = { type: "refused", reason: (err as Error).message };
        }
        if (!ended) worker.postMessage(reply);
      };
      worker.onerror = (e) =>
        end({ type: "failed", reason: `the importer crashed (${e.message}): not imported` }, true);
      armStall();
      worker.postMessage({ type: "job", job } satisfies ToWorker);
    });
  }

  /** Ends the job in flight (if any) as `stopped`, terminating its worker. */
  halt(): void {
    this.stop?.();
    this.drop();
  }

  /** Lets the worker go (the queue is idle): its heap is freed, the next job spawns another. */
  drop(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  private spawn(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.o.workerUrl ?? defaultWorkerUrl(), { smol: true } as WorkerOptions);
    // The worker must not keep a finished process alive.
    (w as Worker & { unref?(): void }).unref?.();
    this.worker = w;
    return w;
  }
}
