/**
 * Spaces the calls of one process to a rate-limited API: one slot every `intervalMs`.
 * A call that would have to wait longer than it can afford is turned away at once
 * instead of queueing (a research run would rather go without that provider than stall).
 */
export class Pacer {
  private next = 0;

  constructor(private readonly intervalMs: number) {}

  /** Takes the next free slot: ms to wait before calling, or null (nothing taken) if over `maxWaitMs`. */
  reserve(maxWaitMs: number, now = Date.now()): number | null {
    if (this.intervalMs <= 0) return 0;
    const at = Math.max(now, this.next);
    if (at - now > maxWaitMs) return null;
    this.next = at + this.intervalMs;
    return at - now;
  }
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
