import { abortableSleep, fitsDeadline } from "./deadline.ts";
import { LlmError } from "./llm-error.ts";
import type { TokenWindows } from "./token-window.ts";
import type { ChatRequest, ChatResult } from "./types.ts";

/** How a client retries what can succeed: 408, 429, 5xx, cut streams and network failures. */
export interface RetryPolicy {
  /** Further attempts after the first. */
  retries: number;
  /** First backoff; doubles per attempt, with ±25 % jitter. */
  baseDelayMs: number;
  /** Ceiling of the computed backoff. */
  maxDelayMs: number;
  /**
   * The longest wait a server may ask for (Retry-After, "try again in …") and still be
   * waited for; beyond it the call fails at once with the server's reason. Default 60 s:
   * a per-minute window always reopens within it, a daily cap never does.
   */
  maxRetryAfterMs?: number;
  /** Told before each wait (logs, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: LlmError }) => void;
  /** Told when a call fails for good, with the error its caller gets. */
  onGiveUp?: (error: LlmError) => void;
  /** The wait itself; replaced in tests. Must reject with an aborted LlmError when the signal fires. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 60_000,
} satisfies RetryPolicy;

/** The longest wait the policy grants a server (or a token window). */
const longestWait = (policy: RetryPolicy) => policy.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs;

/**
 * The wait before retry number `attempt` (0-based): backoff with jitter, at least what the
 * server asked; null when the server asked for longer than the policy waits.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs?: number,
  rand = Math.random(),
): number | null {
  if ((retryAfterMs ?? 0) > longestWait(policy)) return null;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.75 + rand * 0.5);
  return Math.round(Math.max(backoff, retryAfterMs ?? 0));
}

/** The error with why it was not retried added to its message. */
const final = (e: LlmError, why: string) =>
  new LlmError(e.reason, `${e.message} (${why})`, { status: e.status, retryAfterMs: e.retryAfterMs, retryable: false });

/**
 * Retries only what another attempt can fix, with exponential backoff and jitter, waiting
 * at least what the server asks — unless it asks for longer than the policy waits or
 * than the run has left, when the call fails at once with the server's reason. Once a
 * delta has reached the caller a retry would repeat text, so from then on a failure is final.
 * Every attempt first waits for room in its model's token window (`windows`), if known.
 */
export async function withRetry(
  req: ChatRequest,
  policy: RetryPolicy,
  once: (req: ChatRequest) => Promise<ChatResult>,
  windows?: TokenWindows,
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
      await windows?.admit(tracked, longestWait(policy), sleep);
      return await once(tracked);
    } catch (e) {
      if (req.signal.aborted) throw new LlmError("aborted", "aborted");
      let err = e instanceof LlmError ? e : new LlmError("network", String((e as Error)?.message ?? e));
      const delayMs = err.retryable && !emitted ? retryDelay(policy, attempt, err.retryAfterMs) : null;
      if (err.retryable && emitted) err = final(err, "not retried: part of the answer was already sent");
      else if (err.retryable && attempt >= policy.retries)
        err = attempt > 0 ? final(err, `after ${attempt + 1} attempts`) : final(err, "retries are off");
      else if (err.retryable && delayMs === null) err = final(err, "not retried: the wait asked is too long");
      else if (delayMs !== null && !fitsDeadline(delayMs, req.deadline))
        err = final(err, "not retried: the run's deadline comes first");
      if (!err.retryable || delayMs === null) {
        policy.onGiveUp?.(err);
        throw err;
      }
      policy.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
      req.onRetry?.(attempt + 1, err.reason);
      await sleep(delayMs, req.signal);
    }
  }
}
