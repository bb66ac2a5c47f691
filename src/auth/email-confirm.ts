import { AppError } from "../contract/errors.ts";
import type { AuditNote, Store } from "../store/types.ts";
import { randomToken, sha256Hex } from "../util/crypto.ts";
import type { Logger } from "../util/logger.ts";
import { findAccountByEmail } from "./accounts.ts";
import type { Mailer } from "./mailer.ts";

/** How long a confirmation link works, and how long a pending account holds its address. */
export const LINK_TTL_MS = 24 * 3_600_000;
/** Mails one address may get: one a minute, three an hour (sign-up's included). */
const RESEND_GAP_MS = 60_000;
const MAILS_PER_HOUR = 3;
export const CONFIRM_PATH = "/api/v1/auth/confirm";

/**
 * Links that confirm a sign-up's address (docs/decisions/0092-confirming-addresses-by-mail.md).
 * Threat: an account made with someone else's address. The link's token is random, single-use,
 * expiring, and stored only as its SHA-256. Threat: a squatter's password activated by the
 * mailbox's owner or their mail scanner opening the link — opening changes nothing, and the
 * password is set by whoever confirms (docs/decisions/0113-the-mailbox-owner-sets-the-password.md).
 */
export class EmailConfirmation {
  constructor(
    private readonly store: Store,
    private readonly mailer: Mailer,
    private readonly base: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Mails a fresh link to the account's address; 502 mail_failed when the server did not take it. */
  async send(account: { id: string; email: string }): Promise<void> {
    const token = randomToken(32);
    const at = this.now();
    await this.store.emailConfirmations.insert({
      tokenHash: sha256Hex(token),
      accountId: account.id,
      createdAt: new Date(at).toISOString(),
      expiresAt: new Date(at + LINK_TTL_MS).toISOString(),
    });
    const link = `${this.base}${CONFIRM_PATH}?token=${token}`;
    await this.mailer.send({
      to: account.email,
      subject: "Confirm your email address for research-query",
      text: [
        `Someone, hopefully you, signed up at ${this.base} with this address.`,
        "",
        "To confirm it is yours and start using the account, open this link within 24 hours:",
        link,
        "",
        "If it was not you, ignore this mail: without the link the account cannot be used,",
        "and it is removed after 24 hours.",
      ].join("\n"),
    });
  }

  /**
   * Another link for an account still pending. Quiet by design: the caller answers the same
   * whether the address has an account or not, so nothing is learnt about who signed up; a
   * mailbox gets at most one link a minute and three an hour.
   */
  async resend(email: string): Promise<void> {
    const acc = await findAccountByEmail(this.store, email);
    if (acc?.emailStatus !== "pending") return;
    if (await this.mayMail(acc.id)) await this.send(acc);
  }

  /**
   * A sign-up of an address still pending takes it back: the new password replaces the old one
   * and a new link replaces the old ones. Within the address's mail limit (429 beyond it), so
   * sign-ups cannot flood a mailbox either; 409 email_taken when it was confirmed meanwhile.
   */
  async retake(acc: { id: string; email: string }, passwordHash: string): Promise<void> {
    if (!(await this.mayMail(acc.id)))
      throw new AppError("too_many_signups", "a link was mailed to this address moments ago; try again later", 429, {
        "Retry-After": String(RESEND_GAP_MS / 1000),
      });
    if (!(await this.store.accounts.retakePending(acc.email, passwordHash)))
      throw new AppError("email_taken", "an account with this email already exists");
    await this.send(acc);
  }

  /** At most one mail a minute and three an hour to one address. */
  private async mayMail(accountId: string): Promise<boolean> {
    const at = this.now();
    const sent = await this.store.emailConfirmations.sentSince(accountId, new Date(at - 3_600_000).toISOString());
    const newest = sent[0] ? Date.parse(sent[0]) : 0;
    if (sent.length < MAILS_PER_HOUR && at - newest >= RESEND_GAP_MS) return true;
    this.logger.info("confirmation_mail_skipped", { account_id: accountId, sent_last_hour: sent.length });
    return false;
  }

  /** Whether a link still works; opening it (a GET, a mail scanner's too) changes nothing. */
  async isLive(token: string | null): Promise<boolean> {
    if (!token || token.length > 200) return false;
    return (await this.store.emailConfirmations.live(sha256Hex(token), new Date(this.now()).toISOString())) !== null;
  }

  /**
   * Confirms by a link with the password its holder chose: the account whose address it
   * proved, or null (unknown, used or expired).
   */
  async confirm(token: string | null, passwordHash: string, audit?: AuditNote): Promise<string | null> {
    if (!token || token.length > 200) return null;
    return this.store.emailConfirmations.take(
      sha256Hex(token),
      new Date(this.now()).toISOString(),
      passwordHash,
      audit,
    );
  }
}
