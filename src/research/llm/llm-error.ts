/** Why a model call failed; "aborted" is the caller's own doing and never retried. */
export type LlmFailure = "http_status" | "network" | "aborted" | "bad_payload";

/**
 * A model call that failed for good (after retries), or was aborted. `code` is always the
 * run failure code llm_failed; `reason` tells an abort apart from a real failure.
 */
export class LlmError extends Error {
  readonly code = "llm_failed" as const;
  constructor(
    readonly reason: LlmFailure,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "LlmError";
  }
  /** 429, 5xx and network failures are worth another try. */
  get retryable(): boolean {
    return this.reason === "network" || this.status === 429 || (this.status !== undefined && this.status >= 500);
  }
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
