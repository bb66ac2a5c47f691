import { LlmError } from "./llm-error.ts";
import type { ChatRequest, ChatResult } from "./types.ts";

export interface RetryPolicy { retries: number; baseDelayMs: number; maxDelayMs: number }
export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal.aborted) return reject(new LlmError("aborted", "aborted"));
  const t = setTimeout(() => { signal.removeEventListener("abort", onAbort); resolve(); }, ms);
  const onAbort = () => { clearTimeout(t); reject(new LlmError("aborted", "aborted")); };
  signal.addEventListener("abort", onAbort, { once: true });
});

/**
 * Retries 429, 5xx and network failures with exponential backoff and jitter, waiting at
 * least what Retry-After asks (capped). Once a delta has reached the caller a retry would
 * repeat text, so from then on a failure is final.
 */
export async function withRetry(req: ChatRequest, policy: RetryPolicy, once: (req: ChatRequest) => Promise<ChatResult>): Promise<ChatResult> {
  let emitted = false;
  const tracked: ChatRequest = req.onDelta ? { ...req, onDelta: (t) => { emitted = true; req.onDelta!(t); } } : req;
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(tracked);
    } catch (e) {
      const err = e instanceof LlmError ? e : new LlmError("network", String((e as Error)?.message ?? e));
      if (req.signal.aborted) throw new LlmError("aborted", "aborted");
      if (!err.retryable || emitted || attempt >= policy.retries) throw err;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      await sleep(Math.min(policy.maxDelayMs, Math.max(backoff, err.retryAfterMs ?? 0)), req.signal);
    }
  }
}
