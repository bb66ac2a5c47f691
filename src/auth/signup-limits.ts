import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import type { SignupBucket, SignupBucketsTable } from "../store/types.ts";
import { emailDomain } from "./email.ts";
import { parseAllowedDomains } from "./oidc/link-account.ts";

/**
 * Who may sign up through the API (SIGNUP, SIGNUP_DOMAINS). Threat: every free account is a
 * fresh monthly allowance, so unlimited anonymous accounts are unlimited free runs. Accounts
 * made by the CLI or the identity provider are not sign-ups and are never refused here.
 */
export function signupPolicy(config: Pick<Config, "SIGNUP" | "SIGNUP_DOMAINS">): (email: string) => void {
  const domains = parseAllowedDomains(config.SIGNUP_DOMAINS).map((d) => d.normalize("NFC"));
  return (email) => {
    if (config.SIGNUP === "closed")
      throw new AppError(
        "signup_not_allowed",
        "sign-up is closed on this server: ask its operator for an account, or sign in through the identity provider",
      );
    if (domains.length && !domains.includes(emailDomain(email)))
      throw new AppError(
        "signup_not_allowed",
        `sign-up on this server is open to email addresses at ${domains.join(", ")} only`,
      );
  };
}

/**
 * Who can make an account through the API with no operator involved, in words ("anyone who
 * signs up", "anyone with an address at acme.com who signs up"), or null when sign-up is
 * closed: what a shared collection is read by beyond the accounts there are now.
 */
export function openSignup(config: Pick<Config, "SIGNUP" | "SIGNUP_DOMAINS">): string | null {
  if (config.SIGNUP === "closed") return null;
  const domains = parseAllowedDomains(config.SIGNUP_DOMAINS);
  return domains.length ? `anyone with an address at ${domains.join(", ")} who signs up` : "anyone who signs up";
}

/**
 * SIGNUP_PER_HOUR per client as a token bucket: a burst of N, then one every 60/N minutes.
 * Threat: one client making accounts by the dozen (60 in 5 s), and probing which emails
 * have accounts through email_taken — a refused sign-up costs a token too. In memory, like
 * the sign-in counters, or in the database when instances on several hosts share it (one
 * budget whichever instance is asked); idle buckets are dropped once they would be full again.
 */
export class SignupRate {
  private readonly buckets = new Map<string, SignupBucket>();
  private readonly msPerToken: number;

  constructor(
    private readonly perHour: number,
    private readonly now: () => number = Date.now,
    private readonly stored: SignupBucketsTable | null = null,
  ) {
    this.msPerToken = 3_600_000 / perHour;
  }

  /** Takes one sign-up for `client`; 429 too_many_signups with Retry-After when none is left. */
  async take(client: string): Promise<void> {
    const t = this.now();
    const waitMs = this.stored
      ? await this.stored.update(client, (b) => this.decide(b, t), t - this.perHour * this.msPerToken)
      : this.takeHere(client, t);
    if (waitMs > 0) {
      const secs = Math.max(1, Math.ceil(waitMs / 1000));
      throw new AppError("too_many_signups", `too many sign-ups from this address; try again in ${secs} s`, 429, {
        "Retry-After": String(secs),
      });
    }
  }

  /** The bucket after one sign-up at `t`, or the ms until one token is there (nothing taken). */
  private decide(b: SignupBucket | undefined, t: number): { result: number; write: SignupBucket | null } {
    const tokens = b ? Math.min(this.perHour, b.tokens + (t - b.at) / this.msPerToken) : this.perHour;
    if (tokens < 1) return { result: (1 - tokens) * this.msPerToken, write: null };
    return { result: 0, write: { tokens: tokens - 1, at: t } };
  }

  private takeHere(client: string, t: number): number {
    const { result, write } = this.decide(this.buckets.get(client), t);
    if (write) this.buckets.set(client, write);
    if (this.buckets.size > 100_000) this.sweep(t);
    return result;
  }

  private sweep(t: number): void {
    for (const [k, b] of this.buckets)
      if (b.tokens + (t - b.at) / this.msPerToken >= this.perHour) this.buckets.delete(k);
  }
}
