import type { AttemptEntry, Awaitable, LoginAttemptsTable } from "../store/types.ts";

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
 * Where attempts are counted: MemoryAttempts for one process, StoredAttempts in the database
 * for instances on several hosts; both apply the same rules (reserveEntries, settleEntries).
 * Threat: a burst of simultaneous guesses that all pass a check made before any is recorded —
 * so an attempt is reserved, atomically on every key, before the password is looked at.
 */
export interface AttemptStore {
  /** 0 after recording one attempt in flight on every key, or the ms to wait when any key refuses (nothing recorded). */
  reserve(keys: readonly AttemptKey[], now: number): Awaitable<number>;
  /** Ends a reserved attempt. */
  settle(keys: readonly AttemptKey[], outcome: Outcome, now: number): Awaitable<void>;
}

type Entries = Map<string, AttemptEntry>;

/**
 * A key refuses while blocked, and while its attempts in flight could use up what its free
 * failures leave (at least one may always run once unblocked). An entry idle past
 * forgetAfterMs starts over — in flight or not, on the database: an instance that died
 * mid-attempt must not hold the key forever.
 */
function reserveEntries(
  p: AttemptPolicy,
  keys: readonly AttemptKey[],
  current: Entries,
  now: number,
  forgetPending: boolean,
) {
  const live = (k: string) => {
    const e = current.get(k);
    return e && (forgetPending || !e.pending) && now - e.lastAt > p.forgetAfterMs ? undefined : e;
  };
  for (const k of keys) {
    const e = live(k.key);
    if (!e) continue;
    if (e.blockedUntil > now) return { wait: e.blockedUntil - now, write: new Map<string, AttemptEntry | null>() };
    if (e.pending >= Math.max(1, k.free - e.failures)) return { wait: p.baseDelayMs, write: new Map() };
  }
  const write = new Map<string, AttemptEntry | null>();
  for (const k of keys) {
    const e = live(k.key) ?? { failures: 0, pending: 0, blockedUntil: 0, lastAt: now };
    write.set(k.key, { ...e, pending: e.pending + 1, lastAt: now });
  }
  return { wait: 0, write };
}

/** The entries after an attempt ended: null for an entry with nothing left to remember. */
function settleEntries(p: AttemptPolicy, keys: readonly AttemptKey[], outcome: Outcome, current: Entries, now: number) {
  const write = new Map<string, AttemptEntry | null>();
  for (const k of keys) {
    const old = current.get(k.key);
    if (!old) continue;
    const e = { ...old, pending: Math.max(0, old.pending - 1), lastAt: now };
    if (outcome === "failure" && ++e.failures >= k.free)
      e.blockedUntil = now + Math.min(p.baseDelayMs * 2 ** (e.failures - k.free), p.maxDelayMs);
    if (outcome === "success" && k.clearOnSuccess) e.failures = e.blockedUntil = 0;
    write.set(k.key, !e.pending && !e.failures ? null : e);
  }
  return write;
}

/** In memory (one process, or processes on one SQLite file: blocks expire on their own, so a restart only forgets them early). */
export class MemoryAttempts implements AttemptStore {
  private readonly entries: Entries = new Map();
  constructor(private readonly policy: AttemptPolicy) {}

  reserve(keys: readonly AttemptKey[], now: number): number {
    const { wait, write } = reserveEntries(this.policy, keys, this.entries, now, false);
    this.apply(write);
    return wait;
  }

  settle(keys: readonly AttemptKey[], outcome: Outcome, now: number): void {
    this.apply(settleEntries(this.policy, keys, outcome, this.entries, now));
    if (this.entries.size > 100_000) this.sweep(now);
  }

  private apply(write: Map<string, AttemptEntry | null>): void {
    for (const [k, e] of write) {
      if (e) this.entries.set(k, e);
      else this.entries.delete(k);
    }
  }

  private sweep(now: number): void {
    for (const [k, e] of this.entries)
      if (!e.pending && now - e.lastAt > this.policy.forgetAfterMs) this.entries.delete(k);
  }
}

/**
 * In the database (PostgreSQL: instances on several hosts): every instance counts against the
 * same rows, so spreading guesses over instances buys nothing. Each reserve and settle is one
 * transaction holding the keys' locks (LoginAttemptsTable.update).
 */
export class StoredAttempts implements AttemptStore {
  constructor(
    private readonly table: LoginAttemptsTable,
    private readonly policy: AttemptPolicy,
  ) {}

  reserve(keys: readonly AttemptKey[], now: number): Promise<number> {
    return this.table.update(
      keys.map((k) => k.key),
      (current) => {
        const { wait, write } = reserveEntries(this.policy, keys, current, now, true);
        return { result: wait, write };
      },
      now - this.policy.forgetAfterMs,
    );
  }

  settle(keys: readonly AttemptKey[], outcome: Outcome, now: number): Promise<void> {
    return this.table.update(
      keys.map((k) => k.key),
      (current) => ({ result: undefined, write: settleEntries(this.policy, keys, outcome, current, now) }),
      now - this.policy.forgetAfterMs,
    );
  }
}
