import { afterAll, describe, expect, test } from "bun:test";
import { createAccount } from "../../src/auth/accounts.ts";
import { EmailConfirmation, LINK_TTL_MS } from "../../src/auth/email-confirm.ts";
import { createMailer } from "../../src/auth/mailer.ts";
import { loadConfig } from "../../src/config/load.ts";
import { AppError } from "../../src/contract/errors.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { createLogger } from "../../src/util/logger.ts";
import { linkIn, startSmtpSink } from "../fixtures/smtp-sink.ts";

const sink = startSmtpSink();
const silent = startSmtpSink("silent");
afterAll(() => {
  sink.stop();
  silent.stop();
});
const FROM = "rq@mail.test";
const logger = createLogger("silent");

/** A pending account, and confirmation on a clock the test moves. */
async function pending() {
  const store = openSqliteStore(":memory:");
  const acc = await createAccount(
    store,
    `p${crypto.randomUUID().slice(0, 6)}@example.com`,
    "a-password",
    "free",
    undefined,
    "pending",
  );
  let now = Date.parse("2026-11-01T00:00:00Z");
  const mailer = createMailer({ SMTP_URL: sink.url, MAIL_FROM: FROM })!;
  const c = new EmailConfirmation(store, mailer, "https://rq.example", logger, () => now);
  return { store, acc, c, advance: (ms: number) => (now += ms) };
}
const mailsTo = (email: string) => sink.mails.filter((m) => m.to.includes(email));
const status = (store: ReturnType<typeof openSqliteStore>, id: string) =>
  (store.raw.query("SELECT email_status AS s FROM accounts WHERE id = ?").get(id) as { s: string }).s;

describe("confirmation links", () => {
  test("a link expires after 24 hours", async () => {
    const { store, acc, c, advance } = await pending();
    await c.send(acc);
    const token = new URL(linkIn(mailsTo(acc.email).at(-1)!)).searchParams.get("token");
    advance(LINK_TTL_MS);
    expect(await c.isLive(token)).toBe(false);
    expect(await c.confirm(token, "a-hash")).toBeNull();
    expect(status(store, acc.id)).toBe("pending");
  });

  test("resend: one mail a minute and three an hour per address; only a pending account gets one", async () => {
    const { store, acc, c, advance } = await pending();
    await c.send(acc); // the sign-up's mail
    await c.resend(acc.email);
    expect(mailsTo(acc.email).length).toBe(1); // within the minute
    advance(60_000);
    await c.resend(acc.email);
    advance(60_000);
    await c.resend(acc.email);
    expect(mailsTo(acc.email).length).toBe(3);
    advance(60_000);
    await c.resend(acc.email);
    expect(mailsTo(acc.email).length).toBe(3); // three an hour
    // Only the newest link works (each new one kills the older); the address's mails still count.
    const links = mailsTo(acc.email).map((m) => new URL(linkIn(m)).searchParams.get("token"));
    expect(await c.isLive(links[0]!)).toBe(false);
    expect(await c.confirm(links[0]!, "a-hash")).toBeNull();
    expect(status(store, acc.id)).toBe("pending");
    expect(await c.isLive(links[2]!)).toBe(true);
    expect(await c.confirm(links[2]!, "a-hash")).toBe(acc.id);
    expect(await c.confirm(links[2]!, "a-hash")).toBeNull();
    advance(3_600_000);
    await c.resend(acc.email);
    expect(mailsTo(acc.email).length).toBe(3); // proven: nothing more to confirm
  });

  test("a pending account whose link lapsed frees its address; a proven one never does", async () => {
    const { store, acc } = await pending();
    const before = (ms: number) => new Date(Date.parse(acc.created_at) + ms).toISOString();
    expect(await store.accounts.removePending(acc.email, before(-1))).toBe(false);
    expect(await store.accounts.removePending(acc.email, before(LINK_TTL_MS))).toBe(true);
    const kept = await createAccount(store, "kept@example.com", "a-password", "free");
    expect(await store.accounts.removePending(kept.email, before(10 * LINK_TTL_MS))).toBe(false);
  });

  test("a mail server that never greets: mail_failed once the greeting times out, not a hang", async () => {
    const mailer = createMailer(
      { SMTP_URL: silent.url, MAIL_FROM: FROM },
      { connectMs: 500, greetingMs: 300, socketMs: 500 },
    )!;
    const failed = await mailer.send({ to: "x@example.com", subject: "s", text: "t" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect((failed as AppError).code).toBe("mail_failed");
  });
});

describe("mail settings", () => {
  const codeOf = (env: Record<string, string>) => {
    try {
      loadConfig(env, "/nonexistent");
      return "ok";
    } catch (e) {
      return (e as AppError).message;
    }
  };
  test("a bad SMTP_URL stops the start naming it, its password hidden; SMTP_URL needs MAIL_FROM", () => {
    const bad = codeOf({ SMTP_URL: "http://user:hunter2secret@mail.test", MAIL_FROM: FROM });
    expect(bad).toContain("SMTP_URL");
    expect(bad).not.toContain("hunter2secret");
    expect(codeOf({ SMTP_URL: "smtp://mail.test:587" })).toContain("MAIL_FROM");
    expect(codeOf({ SMTP_URL: "smtps://u:p@mail.test:465", MAIL_FROM: "not an address" })).toContain("MAIL_FROM");
    expect(codeOf({ SMTP_URL: "smtps://u:p@mail.test:465", MAIL_FROM: "Research <rq@mail.test>" })).toBe("ok");
  });
});
