/**
 * Hashes of keys recently looked up and not found. A client stuck on a wrong or deleted
 * key (an old value in an env file, a retry loop) or a flood of guesses would otherwise
 * cost a SQLite read transaction (two shm lock syscalls) on every refusal.
 *
 * Only absent keys are remembered, never valid or revoked ones, so revocation stays
 * immediate. A key absent now can only become valid by being generated (24 random bytes)
 * or by the database being swapped under us (a restore): the TTL bounds that case.
 * The size cap bounds memory against a flood of distinct guesses.
 */
export class UnknownKeys {
  // Two generations instead of one LRU map: deleting at a Map's head one entry at a time
  // is slow in JSC (~12 µs per insert once full), while dropping a whole generation is O(1).
  private current = new Map<string, number>();
  private previous = new Map<string, number>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly max = 10_000,
  ) {}

  /** Whether this hash was looked up and absent within the TTL. */
  has(hash: string, now = Date.now()): boolean {
    const until = this.current.get(hash) ?? this.previous.get(hash);
    return until !== undefined && until > now;
  }

  add(hash: string, now = Date.now()): void {
    if (this.current.size >= Math.ceil(this.max / 2)) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(hash, now + this.ttlMs);
  }

  /** Forgets everything (key creation in this process calls it, belt and braces). */
  clear(): void {
    this.current.clear();
    this.previous.clear();
  }

  /** Entries held, at most `max`. */
  get size(): number {
    return this.current.size + this.previous.size;
  }
}
