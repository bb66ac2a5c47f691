// The parse pool's settings, its bookkeeping of jobs and workers, and where its worker script is.

import type { Ticker } from "../../util/memory-watch.ts";
import { workerUrl } from "../../util/worker-url.ts";
import type { PoolJob } from "./parse-worker.ts";

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
  jobTimer?: (onOverrun: () => void, ms: number) => () => void;
}

export const wallClockTimer = (onOverrun: () => void, ms: number) => {
  const t = setTimeout(onOverrun, ms);
  return () => clearTimeout(t);
};

/** A parse this long is a runaway (hostile nesting, a pathological PDF), not a slow page. */
export const PARSE_JOB_MS = 20_000;
/** PARSE_MEMORY_MB's default (README "Configuration"), for pools built without the setting. */
export const PARSE_MEMORY_BYTES = 256 * 1048576;

export interface Pending {
  job: PoolJob;
  resolve(v: unknown): void;
  reject(e: Error): void;
  /** Order of arrival: the lowest is the job under way longest. */
  seq: number;
  slot: number;
  /** Set once the job was moved off a worker stopped for another job's memory. */
  retried: boolean;
  cancelTimer(): void;
  /** The process's resident memory when the job was handed to a worker: its growth counts from there. */
  since: number;
}
export interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  answered: boolean;
}

/** The parse worker script, in a checkout or inside the binary. */
export const defaultWorkerUrl = () => workerUrl(import.meta.url, "research/read/parse-worker.ts", "./parse-worker.ts");
