/** A model call that failed for good (after retries), or was aborted. */
export class LlmError extends Error {
  constructor(readonly reason: "http_status" | "network" | "aborted" | "bad_payload", message: string, readonly status?: number, readonly retryAfterMs?: number) {
    super(message);
    this.name = "LlmError";
  }
  /** 429, 5xx and network failures are worth another try. */
  get retryable(): boolean {
    return this.reason === "network" || this.status === 429 || (this.status !== undefined && this.status >= 500);
  }
}

/** Retry-After as seconds or an HTTP date, in ms (null when absent or unreadable). */
export function parseRetryAfter(v: string | null | undefined): number | null {
  if (!v) return null;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const d = Date.parse(v);
  return Number.isNaN(d) ? null : Math.max(0, d - Date.now());
}
