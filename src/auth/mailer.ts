import { createTransport } from "nodemailer";
import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { redactUrlIn } from "../util/redact-url.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends the service's mail (README "Accounts: sign-up and sign-in"). */
export interface Mailer {
  /** Resolves once the server accepted the message; 502 mail_failed otherwise, never a hang. */
  send(message: MailMessage): Promise<void>;
}

/** How long each step of an SMTP dialogue may wait; a test shortens them. */
export interface MailTimeouts {
  connectMs: number;
  greetingMs: number;
  socketMs: number;
}
const TIMEOUTS: MailTimeouts = { connectMs: 10_000, greetingMs: 10_000, socketMs: 20_000 };

/**
 * The SMTP mailer of SMTP_URL, or null when mail is not configured. nodemailer speaks the
 * dialogue (STARTTLS when the server offers it on smtp://, TLS from the start on smtps://).
 * One connection per message: a few sign-ups an hour need no pool.
 */
export function createMailer(
  cfg: Pick<Config, "SMTP_URL" | "MAIL_FROM">,
  timeouts: MailTimeouts = TIMEOUTS,
): Mailer | null {
  const url = cfg.SMTP_URL;
  if (!url || !cfg.MAIL_FROM) return null;
  const transport = createTransport({
    url,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const from = cfg.MAIL_FROM;
  return {
    async send(m) {
      try {
        await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
      } catch (e) {
        // The server's own words help the operator; the URL's password never travels with them.
        const why = redactUrlIn(e instanceof Error ? e.message : String(e), url);
        throw new AppError("mail_failed", `the mail server did not take the message: ${why}`);
      }
    },
  };
}
