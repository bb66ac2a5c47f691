import { availableParallelism } from "node:os";
import type { Extracted } from "../../text/html-extract.ts";
import type { PdfText } from "../../text/pdf.ts";
import type { DocParser } from "./doc-parser.ts";
import { FetchError, type FetchFailure } from "./fetch-error.ts";
import type { ParseJob, ParseReply } from "./parse-worker.ts";

/** Settings of the parse pool. */
export interface ParsePoolOptions {
  /** Worker threads; default: one less than the CPUs (at least 1, at most 4). */
  size?: number;
  /** A job running longer is a runaway parse: its worker is terminated and replaced. */
  jobTimeoutMs?: number;
  /** The worker script; the default is resolved next to this module (also inside the binary). */
  workerUrl?: string | URL;
  /** Told of every parse: where it ran and whether it produced text. */
  onParse?: (where: "worker" | "inline", ok: boolean) => void;
  /** Starts a job's time limit and returns its cancel; tests replace it to overrun a job without waiting. */
  jobTimer?: (onOverrun: () => void, ms: number) => () => void;
}

const wallClockTimer = (onOverrun: () => void, ms: number) => {
  const t = setTimeout(onOverrun, ms);
  return () => clearTimeout(t);
};

/** A parse this long is a runaway (hostile nesting, a pathological PDF), not a slow page. */
export const PARSE_JOB_MS = 20_000;

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  url: string;
  cancelTimer(): void;
}
interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  answered: boolean;
}

/**
 * Where the worker script is. In the compiled binary (`bun run build` lists it as a second
 * entrypoint) entrypoints are stored relative to their common folder, src/; from a
 * checkout it sits next to this module.
 */
function defaultWorkerUrl(): string | URL {
  return /\/\$bunfs\/|~BUN\//.test(import.meta.url)
    ? "./research/read/parse-worker.ts"
    : new URL("./parse-worker.ts", import.meta.url);
}

/**
 * Parses pages and PDFs on worker threads, spawned on first use (an idle server holds
 * none). Each job goes to the least busy worker. A worker that crashes or overruns a job
 * fails its jobs with typed FetchErrors and is replaced; if workers can't start at all,
 * parsing falls back to the calling thread rather than failing runs.
 */
export function createParsePool(o: ParsePoolOptions = {}, fallback?: DocParser): DocParser & { close(): void } {
  const size = o.size ?? Math.max(1, Math.min(4, availableParallelism() - 1));
  const jobTimeoutMs = o.jobTimeoutMs ?? PARSE_JOB_MS;
  const url = o.workerUrl ?? defaultWorkerUrl();
  const jobTimer = o.jobTimer ?? wallClockTimer;
  const slots: (Slot | undefined)[] = Array.from({ length: size });
  let nextId = 1;
  let broken = false;

  const retire = (i: number, why: FetchFailure, message: string) => {
    const s = slots[i];
    if (!s) return;
    slots[i] = undefined;
    s.worker.terminate();
    for (const p of s.pending.values()) {
      p.cancelTimer();
      p.reject(new FetchError(why, p.url, message));
    }
  };
  const spawn = (i: number): Slot => {
    const worker = new Worker(url, { smol: true } as WorkerOptions);
    const slot: Slot = { worker, pending: new Map(), answered: false };
    worker.onmessage = (e: MessageEvent<ParseReply>) => {
      slot.answered = true;
      const p = slot.pending.get(e.data.id);
      if (!p) return;
      slot.pending.delete(e.data.id);
      p.cancelTimer();
      if (e.data.ok) p.resolve(e.data.value);
      else p.reject(new FetchError(e.data.reason as FetchFailure, p.url, e.data.message));
    };
    worker.onerror = (e) => {
      // Dying before its first answer means the worker can't start here (a missing script):
      // from now on parse inline. A crash later is one bad document; the next job respawns.
      if (!slot.answered) broken = true;
      retire(i, "unsupported_type", `the parser crashed: ${e.message}`);
    };
    // Workers must not keep a finished CLI process alive.
    (worker as Worker & { unref?(): void }).unref?.();
    slots[i] = slot;
    return slot;
  };
  const pick = (): [number, Slot] => {
    let best = 0;
    for (let i = 1; i < size; i++) if ((slots[i]?.pending.size ?? 0) < (slots[best]?.pending.size ?? 0)) best = i;
    return [best, slots[best] ?? spawn(best)];
  };
  const run = <T>(job: Omit<ParseJob, "id">, signal?: AbortSignal): Promise<T> => {
    let i: number, slot: Slot;
    try {
      [i, slot] = pick();
    } catch {
      broken = true;
      return Promise.reject(new Error("no worker"));
    }
    const id = nextId++;
    if (signal?.aborted) return Promise.reject(new FetchError("aborted", job.url, "aborted"));
    return new Promise<T>((resolve, reject) => {
      // The caller stops waiting at once; the worker finishes the job and its answer is dropped.
      const onAbort = () => reject(new FetchError("aborted", job.url, "aborted"));
      const settle =
        <A>(f: (a: A) => void) =>
        (a: A) => {
          signal?.removeEventListener("abort", onAbort);
          f(a);
        };
      const cancelTimer = jobTimer(
        () => retire(i, "timeout", `parsing took longer than ${jobTimeoutMs} ms`),
        jobTimeoutMs,
      );
      slot.pending.set(id, {
        resolve: settle(resolve as (v: unknown) => void),
        reject: settle(reject),
        url: job.url,
        cancelTimer,
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      // Copied, not transferred: the caller may still hold the bytes.
      slot.worker.postMessage({ ...job, id } satisfies ParseJob);
    });
  };
  const counted = <T>(where: "worker" | "inline", p: Promise<T>): Promise<T> =>
    p.then(
      (v) => {
        o.onParse?.(where, true);
        return v;
      },
      (e) => {
        o.onParse?.(where, false);
        throw e;
      },
    );
  const viaPool = <T>(job: Omit<ParseJob, "id">, inline: () => Promise<T>, signal?: AbortSignal): Promise<T> =>
    broken && fallback
      ? counted("inline", inline())
      : run<T>(job, signal).then(
          (v) => {
            o.onParse?.("worker", true);
            return v;
          },
          (e) => {
            if (broken && fallback) return counted("inline", inline());
            o.onParse?.("worker", false);
            return Promise.reject(e);
          },
        );

  return {
    html: (bytes, contentType, url, signal) =>
      viaPool<Extracted>(
        { kind: "html", bytes, contentType, url },
        () => fallback!.html(bytes, contentType, url, signal),
        signal,
      ),
    pdf: (bytes, url, signal) =>
      viaPool<PdfText>(
        { kind: "pdf", bytes, contentType: "application/pdf", url },
        () => fallback!.pdf(bytes, url, signal),
        signal,
      ),
    close: () => {
      for (let i = 0; i < size; i++) retire(i, "aborted", "the parser pool was closed");
    },
  };
}
