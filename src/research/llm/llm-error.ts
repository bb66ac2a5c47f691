import { limitFacts } from "./limit-facts.ts";

/**
 * Why a model call failed: an HTTP error status (before or inside the stream), a broken
 * connection, the caller's abort, an unreadable answer, an answer that did not finish
 * (`length`, a stream cut before its finish_reason), or our own token pacing giving up.
 */
export type LlmFailure = "http_status" | "network" | "aborted" | "bad_payload" | "incomplete" | "rate_limited";

export interface LlmErrorDetails {
  status?: number;
  /** What the upstream asked us to wait (Retry-After, or "try again in …" in its message). */
  retryAfterMs?: number;
  /** Whether another identical attempt can succeed; default from reason and status. */
  retryable?: boolean;
}

/**
 * A model call that failed for good (after retries), or was aborted. `code` is always the
 * run failure code llm_failed; `reason` tells an abort apart from a real failure.
 */
export class LlmError extends Error {
  readonly code = "llm_failed" as const;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly retryable: boolean;
  constructor(
    readonly reason: LlmFailure,
    message: string,
    d: LlmErrorDetails = {},
  ) {
    super(message);
    this.name = "LlmError";
    this.status = d.status;
    this.retryAfterMs = d.retryAfterMs;
    this.retryable = d.retryable ?? defaultRetryable(reason, d.status);
  }
}

// A timeout, a rate limit, an overloaded server or a dropped connection may pass; a refused request won't.
const defaultRetryable = (reason: LlmFailure, status?: number): boolean =>
  reason === "network" ||
  reason === "incomplete" ||
  (reason === "http_status" && (status === 408 || status === 429 || (status !== undefined && status >= 500)));

/**
 * An upstream's HTTP error (a status before the stream, or one inside it) with its own
 * reason kept. A 429 that cannot pass by waiting is final: a daily cap, or a request
 * larger than the whole per-minute window ("Limit 8000, Requested 12903").
 */
export function upstreamError(who: string, status: number | undefined, reason: string | null, retryAfterMs?: number) {
  const facts = reason ? limitFacts(reason) : {};
  const tooLarge = facts.limit !== undefined && facts.requested !== undefined && facts.requested > facts.limit;
  const daily = facts.per === "day";
  const message = `${who} answered ${status ? `HTTP ${status}` : "with an error"}${reason ? `: ${reason}` : ""}`;
  return new LlmError("http_status", message, {
    status,
    retryAfterMs: retryAfterMs ?? facts.tryAgainMs,
    retryable: tooLarge || daily ? false : undefined,
  });
}

/** True for an LlmError that only says the caller gave up. */
export const isAbort = (e: unknown): boolean => e instanceof LlmError && e.reason === "aborted";

/** Retry-After as seconds or an HTTP date, in ms (null when absent or unreadable). */
export function parseRetryAfter(v: string | null | undefined, now = Date.now()): number | null {
  if (!v) return null;
  const t = v.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  const d = Date.parse(t);
  return Number.isNaN(d) ? null : Math.max(0, d - now);
}
