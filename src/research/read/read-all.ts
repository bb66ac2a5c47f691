import type { SearchHit } from "../search/types.ts";
import type { DocParser } from "./doc-parser.ts";
import { FetchError } from "./fetch-error.ts";
import { type ReadDoc, readUrl } from "./read-url.ts";
import type { Lookup } from "./url-guard.ts";

export interface ReadResult<H extends SearchHit = SearchHit> {
  hit: H;
  doc?: ReadDoc;
  error?: FetchError;
  /** What the engine can use: the page, the database's abstract, or nothing. */
  used: "page" | "abstract" | "none";
  ms: number;
}

export interface ReadAllOptions {
  signal: AbortSignal;
  allowPrivate: boolean;
  concurrency?: number;
  perPageTimeoutMs?: number;
  /** Pages still pending when the stage deadline passes are cut (reported as timeout). */
  stageDeadlineMs?: number;
  /** Starts the stage deadline and returns its cancel (default: setTimeout); tests pass it on cue. */
  stageTimer?: (onDeadline: () => void, ms: number) => () => void;
  maxBytes?: number;
  lookup?: Lookup;
  /** Where bytes become text; default on this thread. */
  parser?: DocParser;
  /**
   * Once this many candidates are usable, stragglers get half as long again as a typical
   * page took (between `graceFloorMs` and `graceMs`), not the whole stage deadline: with
   * enough sources in hand, a page that slow costs the run more than it adds.
   */
  enough?: number;
  graceMs?: number;
  graceFloorMs?: number;
  onResult?: (r: ReadResult) => void;
}

/** The reading stage's clocks when the caller sets none (README "How a run works": 8 s a page, 15 s the stage, 1.5 s grace). */
export const READ_DEFAULTS = {
  perPageTimeoutMs: 8_000,
  stageDeadlineMs: 15_000,
  graceMs: 1_500,
  graceFloorMs: 150,
} as const;

/**
 * Reads candidates in parallel under a stage deadline. An academic hit tries its open
 * PDF, then its page, then falls back to the abstract the database gave.
 */
export async function readCandidates<H extends SearchHit>(hits: H[], o: ReadAllOptions): Promise<ReadResult<H>[]> {
  const stage = new AbortController();
  const stageTimer =
    o.stageTimer ??
    ((onDeadline, ms) => {
      const t = setTimeout(onDeadline, ms);
      return () => clearTimeout(t);
    });
  const cancelDeadline = stageTimer(() => stage.abort("deadline"), o.stageDeadlineMs ?? READ_DEFAULTS.stageDeadlineMs);
  const signal = AbortSignal.any([o.signal, stage.signal]);
  const fetchOpts = {
    signal,
    allowPrivate: o.allowPrivate,
    timeoutMs: o.perPageTimeoutMs ?? READ_DEFAULTS.perPageTimeoutMs,
    maxBytes: o.maxBytes,
    lookup: o.lookup,
    parser: o.parser,
  };
  const results: ReadResult<H>[] = new Array(hits.length);
  // Enough good sources in hand: a slow page is not worth holding the whole run for.
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const readTimes: number[] = [];
  const noteUsable = (ms: number) => {
    readTimes.push(ms);
    if (readTimes.length !== (o.enough ?? 4) || graceTimer) return;
    const typical = readTimes.slice().sort((a, b) => a - b)[Math.floor(readTimes.length / 2)]!;
    graceTimer = setTimeout(
      () => stage.abort("deadline"),
      Math.min(o.graceMs ?? READ_DEFAULTS.graceMs, Math.max(o.graceFloorMs ?? READ_DEFAULTS.graceFloorMs, typical / 2)),
    );
  };
  let next = 0;
  const readOne = async (hit: H): Promise<ReadResult<H>> => {
    const t0 = performance.now();
    let error: FetchError | undefined;
    const urls = new Set([hit.type === "academic" ? hit.pdf_url : undefined, hit.url].filter((u): u is string => !!u));
    for (const url of urls) {
      try {
        return { hit, doc: await readUrl(url, fetchOpts), used: "page", ms: Math.round(performance.now() - t0) };
      } catch (e) {
        error = e instanceof FetchError ? e : new FetchError("network", url, String(e));
        if (error.reason === "aborted" && stage.signal.aborted && !o.signal.aborted)
          error = new FetchError("timeout", url, "cut at the reading stage's deadline");
        if (o.signal.aborted) break;
      }
    }
    const used = hit.abstract && hit.abstract.length >= 80 ? "abstract" : "none";
    return { hit, error, used, ms: Math.round(performance.now() - t0) };
  };
  const worker = async () => {
    while (next < hits.length && !o.signal.aborted) {
      const i = next++;
      const r = await readOne(hits[i]!);
      results[i] = r;
      if (r.used === "page") noteUsable(r.ms);
      o.onResult?.(r);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(o.concurrency ?? 6, hits.length) }, worker));
  } finally {
    cancelDeadline();
    clearTimeout(graceTimer);
  }
  return results.filter(Boolean);
}
