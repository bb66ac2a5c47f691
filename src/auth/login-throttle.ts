import { AppError } from "../contract/errors.ts";

interface Entry {
  failures: number;
  blockedUntil: number;
  lastAt: number;
}

/**
 * Slows password guessing: after `freeFailures` failures for one email (or many more
 * from one address) each further failure blocks that key for a doubling delay, capped
 * at `maxDelayMs`. Blocks expire on their own, so a real user is never locked out for
 * good; a success clears the email's count. In memory: one process serves the database.
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly opts = {
      freeFailures: 5,
      freeFailuresPerAddress: 30,
      baseDelayMs: 1000,
      maxDelayMs: 15 * 60_000,
      forgetAfterMs: 60 * 60_000,
    },
    private readonly now: () => number = Date.now,
  ) {}

  private keys(email: string, address: string): [string, number][] {
    return [
      [`e:${email}`, this.opts.freeFailures],
      [`a:${address}`, this.opts.freeFailuresPerAddress],
    ];
  }

  /** Throws 429 too_many_attempts while the email or the address is blocked. */
  check(email: string, address: string): void {
    const t = this.now();
    for (const [k] of this.keys(email, address)) {
      const e = this.entries.get(k);
      if (e && e.blockedUntil > t) {
        const secs = Math.ceil((e.blockedUntil - t) / 1000);
        throw new AppError("too_many_attempts", `too many failed sign-in attempts; try again in ${secs} s`, 429, {
          "Retry-After": String(secs),
        });
      }
    }
  }

  failure(email: string, address: string): void {
    const t = this.now();
    for (const [k, free] of this.keys(email, address)) {
      let e = this.entries.get(k);
      if (!e || t - e.lastAt > this.opts.forgetAfterMs) e = { failures: 0, blockedUntil: 0, lastAt: t };
      e.failures++;
      e.lastAt = t;
      if (e.failures >= free) {
        const delay = Math.min(this.opts.baseDelayMs * 2 ** (e.failures - free), this.opts.maxDelayMs);
        e.blockedUntil = t + delay;
      }
      this.entries.set(k, e);
    }
    if (this.entries.size > 100_000) this.sweep(t);
  }

  success(email: string): void {
    this.entries.delete(`e:${email}`);
  }

  private sweep(t: number): void {
    for (const [k, e] of this.entries) if (t - e.lastAt > this.opts.forgetAfterMs) this.entries.delete(k);
  }
}
