import { availableParallelism } from "node:os";
import { AppError } from "../contract/errors.ts";
import { argon2id, argon2Verify } from "./accounts.ts";

type Job = () => void;

/**
 * The argon2id work of sign-in and sign-up, on one slot per core with sign-ins first.
 * Threat: a sign-up flood (each one an argon2id hash) queuing ahead of everyone's sign-in —
 * 150 anonymous sign-ups made a 155 ms sign-in take 14 s. Sign-ups never hold the last slot
 * (with more than one), so a sign-in doesn't wait for their hashes; sign-ups beyond a short
 * queue are refused at once (429 with Retry-After) instead of holding memory and connections.
 */
export class PasswordWork {
  private running = 0;
  private runningSignUps = 0;
  private readonly signIns: Job[] = [];
  private readonly signUps: Job[] = [];
  private readonly signUpSlots: number;

  constructor(
    private readonly slots = Math.max(1, availableParallelism()),
    private readonly maxWaitingSignUps = 32,
  ) {
    this.signUpSlots = Math.max(1, slots - 1);
  }

  /** A sign-in's check (or the equal-cost check for an unknown email): ahead of every sign-up. */
  verify(password: string, hash: string): Promise<boolean> {
    return this.run(this.signIns, () => argon2Verify(password, hash), false);
  }

  /** A new account's hash; 429 too_many_signups when the queue is full. */
  hash(password: string): Promise<string> {
    if (this.signUps.length >= this.maxWaitingSignUps)
      throw new AppError(
        "too_many_signups",
        "the server is busy with other sign-ups; try again in a few seconds",
        429,
        {
          "Retry-After": "5",
        },
      );
    return this.run(this.signUps, () => argon2id(password), true);
  }

  private run<T>(queue: Job[], work: () => Promise<T>, signUp: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job = () => {
        this.running++;
        if (signUp) this.runningSignUps++;
        work()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            if (signUp) this.runningSignUps--;
            this.next();
          });
      };
      queue.push(job);
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.slots) {
      const job = this.signIns.shift() ?? (this.runningSignUps < this.signUpSlots ? this.signUps.shift() : undefined);
      if (!job) return;
      job();
    }
  }
}
