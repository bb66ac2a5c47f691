import { availableParallelism } from "node:os";
import type { Extracted } from "../../text/html-extract.ts";
import type { PdfText } from "../../text/pdf.ts";
import { intervalTicker, mib } from "../../util/memory-watch.ts";
import { type PassageRanking, rankJob } from "../rank/rank-job.ts";
import type { Selected } from "../rank/select.ts";
import type { Source } from "../types.ts";
import { type Verified, type VerifyInput, verifyInput } from "../write/verify/verify-answer.ts";
import type { DocParser } from "./doc-parser.ts";
import { FetchError, type FetchFailure } from "./fetch-error.ts";
import {
  defaultWorkerUrl,
  PARSE_JOB_MS,
  PARSE_MEMORY_BYTES,
  type ParsePoolOptions,
  type Pending,
  type Slot,
  wallClockTimer,
} from "./parse-pool-setup.ts";
import type { DocJob, ParseJob, ParseReply, PoolJob } from "./parse-worker.ts";

/**
 * Parses pages and PDFs on worker threads, spawned on first use (an idle server holds
 * none). Each job goes to the least busy worker. A worker that crashes or overruns a job
 * fails its jobs with typed FetchErrors and is replaced; if workers can't start at all,
 * parsing falls back to the calling thread rather than failing runs.
 */
export function createParsePool(
  o: ParsePoolOptions = {},
  fallback?: DocParser,
): DocParser & {
  close(): void;
  rank(job: PassageRanking, signal?: AbortSignal): Promise<Selected[]>;
  verify(input: VerifyInput, signal?: AbortSignal): Promise<Verified<Source>>;
} {
  const size = o.size ?? Math.max(1, Math.min(4, availableParallelism() - 1));
  const jobTimeoutMs = o.jobTimeoutMs ?? PARSE_JOB_MS;
  const memoryLimit = o.memoryLimit ?? PARSE_MEMORY_BYTES;
  const url = o.workerUrl ?? defaultWorkerUrl();
  const jobTimer = o.jobTimer ?? wallClockTimer;
  const slots: (Slot | undefined)[] = Array.from({ length: size });
  let nextId = 1;
  let broken = false;
  const rss = o.rss ?? (() => process.memoryUsage.rss());
  // A job's baseline: reading the process's memory costs ~12 µs of this thread, and a crowd
  // posts thousands of jobs a second; one reading serves the posts of the next 20 ms.
  let recent = { at: Number.NEGATIVE_INFINITY, rss: 0 };
  const baseline = () => {
    const now = performance.now();
    if (now - recent.at > 20) recent = { at: now, rss: rss() };
    return recent.rss;
  };
  // One memory check for the whole pool, running while it has jobs: one per job cost a timer
  // and a read of the process's memory per queued job every 50 ms, which a crowd of runs
  // queues by the thousand.
  let stopChecks: (() => void) | null = null;
  const pending = function* () {
    for (const s of slots) if (s) yield* s.pending.values();
  };
  const idleChecks = () => {
    if (!stopChecks || !pending().next().done) return;
    stopChecks();
    stopChecks = null;
  };
  /** The job under watch longest has grown the most: past the limit, a worker is stopped. */
  const check = () => {
    let oldest: Pending | undefined;
    for (const p of pending()) if (!oldest || p.since < oldest.since) oldest = p;
    if (oldest && rss() - oldest.since > memoryLimit) overMemory(oldest);
  };

  /** Terminates a worker; each of its jobs fails with `fate`'s error, or (null) is posted again. */
  const retire = (i: number, fate: (p: Pending) => FetchError | null) => {
    const s = slots[i];
    if (!s) return;
    slots[i] = undefined;
    s.worker.terminate();
    for (const p of s.pending.values()) {
      p.cancelTimer();
      const error = fate(p);
      if (error) p.reject(error);
      else repost(p);
    }
    idleChecks();
  };
  const failAll = (why: FetchFailure, message: string) => (p: Pending) => new FetchError(why, p.job.url, message);
  const spawn = (i: number): Slot => {
    const worker = new Worker(url, { smol: true } as WorkerOptions);
    const slot: Slot = { worker, pending: new Map(), answered: false };
    worker.onmessage = (e: MessageEvent<ParseReply>) => {
      slot.answered = true;
      const p = slot.pending.get(e.data.id);
      if (!p) return;
      slot.pending.delete(e.data.id);
      p.cancelTimer();
      idleChecks();
      if (e.data.ok) p.resolve(e.data.value);
      else p.reject(new FetchError(e.data.reason as FetchFailure, p.job.url, e.data.message));
    };
    worker.onerror = (e) => {
      // Dying before its first answer means the worker can't start here (a missing script):
      // from now on parse inline. A crash later is one bad document; the next job respawns.
      if (!slot.answered) broken = true;
      retire(i, failAll("unsupported_type", `the parser crashed: ${e.message}`));
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
  /**
   * Memory grew past the limit while `tripped` ran. The process's RSS cannot tell workers
   * apart: the PDF job under way longest is stopped (HTML is bounded by the page cap; a bomb
   * grows from its start), else the job that tripped (docs/decisions/0098-pdf-parse-watchdog.md).
   */
  const overMemory = (tripped: Pending) => {
    let victim = tripped;
    for (const s of slots)
      for (const p of s?.pending.values() ?? [])
        if (p.job.kind === "pdf" && (victim.job.kind !== "pdf" || p.seq < victim.seq)) victim = p;
    const message = `reading it took more than ${mib(memoryLimit)} of memory (a PDF bomb?)`;
    // Its worker's other jobs get one more try on a fresh worker.
    retire(victim.slot, (p) => (p === victim || p.retried ? new FetchError("too_large", p.job.url, message) : null));
    // The others' growth is counted again from now: the stopped worker's memory is handed back late.
    const now = rss();
    for (const p of pending()) p.since = now;
  };
  /** Hands a job to the least busy worker, with its time limit and its memory watch. */
  const post = (p: Pending) => {
    const [i, slot] = pick();
    const id = nextId++;
    p.slot = i;
    p.cancelTimer = jobTimer(
      () => retire(i, failAll("timeout", `parsing took longer than ${jobTimeoutMs} ms`)),
      jobTimeoutMs,
    );
    p.since = baseline();
    slot.pending.set(id, p);
    stopChecks ??= (o.memoryTicker ?? intervalTicker)(check, 50);
    // Copied, not transferred: the caller may still hold the bytes.
    slot.worker.postMessage({ ...p.job, id } satisfies ParseJob);
  };
  const repost = (p: Pending) => {
    p.retried = true;
    try {
      post(p);
    } catch {
      p.reject(new FetchError("unsupported_type", p.job.url, "the parser could not be restarted"));
    }
  };
  const run = <T>(job: PoolJob, signal?: AbortSignal): Promise<T> => {
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
      const p: Pending = {
        job,
        resolve: settle(resolve as (v: unknown) => void),
        reject: settle(reject),
        seq: nextId,
        slot: 0,
        retried: false,
        cancelTimer: () => {},
        since: 0,
      };
      try {
        post(p);
      } catch {
        broken = true;
        return reject(new Error("no worker"));
      }
      signal?.addEventListener("abort", onAbort, { once: true });
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
  const viaPool = <T>(job: DocJob, inline: () => Promise<T>, signal?: AbortSignal): Promise<T> =>
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

  /**
   * A run's ranking or claim check (not parses: not counted by onParse). Both are bounded
   * (docs/decisions/0115-passage-work-off-the-server-thread.md), so where workers can't start
   * this thread does them; a job a worker failed is not redone here: an overrun redone inline
   * held every request for its whole length (docs/decisions/0116-the-claim-check-never-redone-here.md).
   */
  const offThread = <I, T>(job: PoolJob & { input: I }, inline: (input: I) => T, signal?: AbortSignal): Promise<T> =>
    broken
      ? Promise.resolve(inline(job.input))
      : run<T>(job, signal).catch((e: unknown) => {
          if (broken && !signal?.aborted) return inline(job.input);
          throw e;
        });

  return {
    html: (bytes, contentType, url, signal) =>
      viaPool<Extracted>(
        { kind: "html", bytes, contentType, url },
        () => fallback!.html(bytes, contentType, url, signal),
        signal,
      ),
    pdf: (bytes, url, signal, maxPages) =>
      viaPool<PdfText>(
        { kind: "pdf", bytes, contentType: "application/pdf", url, pages: maxPages },
        () => fallback!.pdf(bytes, url, signal, maxPages),
        signal,
      ),
    rank: (job, signal) =>
      offThread({ kind: "rank", url: `rank:${job.docs.length} pages`, input: job }, rankJob, signal),
    verify: (input, signal) =>
      offThread({ kind: "verify", url: `verify:${input.sources[0]?.url ?? ""}`, input }, verifyInput, signal),
    close: () => {
      for (let i = 0; i < size; i++) retire(i, failAll("aborted", "the parser pool was closed"));
    },
  };
}
