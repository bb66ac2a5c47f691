import type { Awaitable } from "../store/types.ts";

/** One counter a sign-in attempt is charged to (an email, a client, a device). */
export interface AttemptKey {
  key: string;
  /** Failures allowed before each further one blocks the key for a doubling delay. */
  free: number;
  /** A success clears the key (an email's or a device's count; never a client's). */
  clearOnSuccess: boolean;
}

export interface AttemptPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key idle this long starts over. */
  forgetAfterMs: number;
}

export type Outcome = "failure" | "success" | "abandoned";

/**
 * Where attempts are counted: MemoryAttempts for one process; a shared store (one row per key,
 * reserve as one conditional UPDATE) can stand in with the same contract.
 * Threat: a burst of simultaneous guesses that all pass a check made before any is recorded —
 * so an attempt is reserved, atomically on every key, before the password is looked at.
 */
export interface AttemptStore {
  /** 0 after recording one attempt in flight on every key, or the ms to wait when any key refuses (nothing recorded). */
  reserve(keys: readonly AttemptKey[], now: number): Awaitable<number>;
  /** Ends a reserved attempt. */
  settle(keys: readonly AttemptKey[], outcome: Outcome, now: number): Awaitable<void>;
}

interface Entry {
  failures: number;
  /** Attempts reserved and not yet settled. */
  pending: number;
  blockedUntil: number;
  lastAt: number;
}

/**
 * In memory (one process serves one database; blocks expire on their own, so a restart
 * only forgets them early). A key refuses while blocked, and while its attempts in flight
 * could use up what its free failures leave (at least one may always run once unblocked).
 */
export class MemoryAttempts implements AttemptStore {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly policy: AttemptPolicy) {}

  reserve(keys: readonly AttemptKey[], now: number): number {
    for (const k of keys) {
      const e = this.live(k.key, now);
      if (!e) continue;
      if (e.blockedUntil > now) return e.blockedUntil - now;
      if (e.pending >= Math.max(1, k.free - e.failures)) return this.policy.baseDelayMs;
    }
    for (const k of keys) {
      const e = this.live(k.key, now) ?? { failures: 0, pending: 0, blockedUntil: 0, lastAt: now };
      e.pending++;
      e.lastAt = now;
      this.entries.set(k.key, e);
    }
    return 0;
  }

  settle(keys: readonly AttemptKey[], outcome: Outcome, now: number): void {
    for (const k of keys) {
      const e = this.entries.get(k.key);
      if (!e) continue;
      e.pending = Math.max(0, e.pending - 1);
      e.lastAt = now;
      if (outcome === "failure" && ++e.failures >= k.free) {
        const { baseDelayMs, maxDelayMs } = this.policy;
        e.blockedUntil = now + Math.min(baseDelayMs * 2 ** (e.failures - k.free), maxDelayMs);
      }
      if (outcome === "success" && k.clearOnSuccess) e.failures = e.blockedUntil = 0;
      if (!e.pending && !e.failures) this.entries.delete(k.key);
    }
    if (this.entries.size > 100_000) this.sweep(now);
  }

  private live(key: string, now: number): Entry | undefined {
    const e = this.entries.get(key);
    if (e && !e.pending && now - e.lastAt > this.policy.forgetAfterMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep(now: number): void {
    for (const [k, e] of this.entries)
      if (!e.pending && now - e.lastAt > this.policy.forgetAfterMs) this.entries.delete(k);
  }
}
