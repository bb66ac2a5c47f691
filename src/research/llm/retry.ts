import { LlmError } from "./llm-error.ts";
import type { ChatRequest, ChatResult } from "./types.ts";

/** How a client retries 429, 5xx and network failures. */
export interface RetryPolicy {
  /** Further attempts after the first. */
  retries: number;
  /** First backoff; doubles per attempt, with ±25 % jitter. */
  baseDelayMs: number;
  /** Ceiling of the computed backoff. */
  maxDelayMs: number;
  /** Ceiling of a server's Retry-After (a run has a deadline; waiting minutes helps nobody). Default 20 s. */
  maxRetryAfterMs?: number;
  /** Told before each wait (logs, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: LlmError }) => void;
  /** The wait itself; replaced in tests. Must reject with an aborted LlmError when the signal fires. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 20_000,
} satisfies RetryPolicy;

/** A wait that ends early, as an aborted LlmError, when the signal fires. */
export const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new LlmError("aborted", "aborted"));
    const onAbort = () => {
      clearTimeout(t);
      reject(new LlmError("aborted", "aborted"));
    };
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

/** The wait before retry number `attempt` (0-based): backoff with jitter, at least Retry-After. */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number, rand = Math.random()): number {
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.75 + rand * 0.5);
  const asked = Math.min(policy.maxRetryAfterMs ?? 20_000, retryAfterMs ?? 0);
  return Math.round(Math.max(backoff, asked));
}

/**
 * Retries 429, 5xx and network failures with exponential backoff and jitter, waiting at
 * least what Retry-After asks (capped). Once a delta has reached the caller a retry would
 * repeat text, so from then on a failure is final.
 */
export async function withRetry(
  req: ChatRequest,
  policy: RetryPolicy,
  once: (req: ChatRequest) => Promise<ChatResult>,
): Promise<ChatResult> {
  let emitted = false;
  const onDelta = req.onDelta;
  const tracked: ChatRequest = onDelta
    ? {
        ...req,
        onDelta: (t) => {
          emitted = true;
          onDelta(t);
        },
      }
    : req;
  const sleep = policy.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(tracked);
    } catch (e) {
      if (req.signal.aborted) throw new LlmError("aborted", "aborted");
      const err = e instanceof LlmError ? e : new LlmError("network", String((e as Error)?.message ?? e));
      if (!err.retryable || emitted || attempt >= policy.retries) throw err;
      const delayMs = retryDelay(policy, attempt, err.retryAfterMs);
      policy.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
      await sleep(delayMs, req.signal);
    }
  }
}
