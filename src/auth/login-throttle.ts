import { AppError } from "../contract/errors.ts";
import type { Store } from "../store/types.ts";
import {
  type AttemptKey,
  type AttemptPolicy,
  type AttemptStore,
  MemoryAttempts,
  type Outcome,
  StoredAttempts,
} from "./attempts.ts";

/** Who is signing in: the normalised email, the client's limit key, and a device id when the browser proved one. */
export interface LoginParty {
  email: string;
  client: string;
  device: string | null;
}

/** A reserved sign-in attempt; settle it exactly once. */
export interface Attempt {
  settle(outcome: Outcome): Promise<void>;
}

const FREE_PER_EMAIL = 5;
const FREE_PER_CLIENT = 30;
const FREE_PER_DEVICE = 5;

const POLICY: AttemptPolicy = { baseDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetAfterMs: 60 * 60_000 };

/** The counters for this store: in its database when instances on several hosts share it, else in memory. */
export function loginAttemptsFor(store: Store): AttemptStore {
  return store.loginAttempts ? new StoredAttempts(store.loginAttempts, POLICY) : new MemoryAttempts(POLICY);
}

/**
 * Slows password guessing without letting one attacker lock others out.
 * Threats: guessing one account (counted per email, whoever sends it), spraying many
 * accounts from one client (counted per client), and using those very limits to lock
 * real users out. After the free failures each further one blocks the key for a doubling
 * delay (1 s … 15 min); blocks expire on their own.
 *
 * A browser that signed in to this email before carries a device cookie (device-cookie.ts):
 * its attempts count only against that device. So the owner of an account under attack,
 * or a user behind the same proxy address as an attacker, still signs in from a browser
 * they used before. Without one, a blocked email or client is refused (429).
 */
export class LoginThrottle {
  constructor(
    private readonly attempts: AttemptStore = new MemoryAttempts(POLICY),
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves one attempt before the password is checked; throws 429 too_many_attempts. */
  async begin(who: LoginParty): Promise<Attempt> {
    const keys: AttemptKey[] = who.device
      ? [{ key: `d:${who.device}`, free: FREE_PER_DEVICE, clearOnSuccess: true }]
      : [
          { key: `e:${who.email}`, free: FREE_PER_EMAIL, clearOnSuccess: true },
          { key: `c:${who.client}`, free: FREE_PER_CLIENT, clearOnSuccess: false },
        ];
    const waitMs = await this.attempts.reserve(keys, this.now());
    if (waitMs > 0) {
      const secs = Math.max(1, Math.ceil(waitMs / 1000));
      throw new AppError("too_many_attempts", `too many sign-in attempts; try again in ${secs} s`, 429, {
        "Retry-After": String(secs),
      });
    }
    let settled = false;
    return {
      settle: async (outcome) => {
        if (settled) return;
        settled = true;
        await this.attempts.settle(keys, outcome, this.now());
      },
    };
  }
}
