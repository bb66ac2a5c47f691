import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { linkIn, type SmtpSink, startSmtpSink } from "../fixtures/smtp-sink.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { authPost, freshEmail, PASSWORD } from "./auth-calls.ts";
import { freshBase, portOf } from "./oidc/idp-browser.ts";

useLongTimeout();

// README "Accounts: sign-up and sign-in": with SMTP_URL, a sign-up's address is confirmed by a
// mailed link before the account can be used (docs/decisions/0092-confirming-addresses-by-mail.md).
const mailEnv = (sink: SmtpSink) => ({
  SMTP_URL: sink.url,
  MAIL_FROM: "Research <rq@mail.test>",
  SIGNUP_PER_HOUR: "100",
});
let sink: SmtpSink, refusing: SmtpSink, dropping: SmtpSink;
let srv: TestServer, refusingSrv: TestServer, droppingSrv: TestServer;
beforeAll(() => {
  [sink, refusing, dropping] = [startSmtpSink(), startSmtpSink("refuse"), startSmtpSink("drop")];
  // The link lands on PUBLIC_URL, whatever address the sign-up came through.
  const base = freshBase();
  srv = startTestServer({
    engine: scriptedEngine(),
    env: { ...mailEnv(sink), PORT: portOf(base), PUBLIC_URL: `${base}/` },
  });
  refusingSrv = startTestServer({ engine: scriptedEngine(), env: mailEnv(refusing) });
  droppingSrv = startTestServer({ engine: scriptedEngine(), env: mailEnv(dropping) });
});
afterAll(async () => {
  await Promise.all([srv.stop(100), refusingSrv.stop(100), droppingSrv.stop(100)]);
  for (const s of [sink, refusing, dropping]) s.stop();
});

const signup = (base: string, email: string) => authPost(base, "signup", { email, password: PASSWORD });
const login = (email: string, password = PASSWORD) => authPost(srv.url, "login", { email, password });
const accounts = (s: TestServer, email: string) =>
  (s.sql.query("SELECT COUNT(*) AS n FROM accounts WHERE email = ?").get(email) as { n: number }).n;
const follow = (link: string) => fetch(link, { redirect: "manual" });

describe("confirming a sign-up's address by mail", () => {
  test("sign-up mails a link and signs nobody in; the account cannot sign in until the link is followed, once", async () => {
    const email = freshEmail("new");
    const mailed = sink.next();
    const res = await signup(srv.url, email);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "confirmation_sent", email });
    expect(res.cookies.some((c) => c.startsWith("auth_token="))).toBe(false);

    const mail = await mailed;
    expect(mail.from).toBe("rq@mail.test");
    expect(mail.to).toEqual([email]);
    const link = linkIn(mail);
    expect(link.startsWith(`${srv.url}/api/v1/auth/confirm?token=`)).toBe(true);
    // Only the token's hash is kept.
    const token = new URL(link).searchParams.get("token")!;
    expect(srv.sql.query("SELECT COUNT(*) AS n FROM email_confirmations WHERE token_hash = ?").get(token)).toEqual({
      n: 0,
    });

    const early = await login(email);
    expect([early.status, early.code]).toEqual([403, "email_not_confirmed"]);
    expect((await login(email, "not the password")).status).toBe(401); // said only to whoever knows the password

    // Opening the link confirms nothing; it leads to the page where its holder sets the password.
    const opened = await follow(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`/confirm#token=${token}`);
    expect((await login(email)).status).toBe(403);
    const confirmed = await authPost(srv.url, "confirm", { token, password: PASSWORD });
    expect(confirmed.status).toBe(200);
    expect(confirmed.cookies.some((c) => c.startsWith("auth_token="))).toBe(true);
    expect((await login(email)).status).toBe(200);

    const again = await follow(link);
    expect(new URL(again.headers.get("location")!, srv.url).searchParams.get("error")).toBe("confirmation_invalid");
    const forged = await follow(`${srv.url}/api/v1/auth/confirm?token=forged`);
    expect(new URL(forged.headers.get("location")!, srv.url).searchParams.get("error")).toBe("confirmation_invalid");
    // The audit trail (README "The audit trail"): each change once; the early refusals record nothing.
    const trail = srv.sql
      .query("SELECT action FROM audit_events WHERE actor = ? OR target = ? ORDER BY id")
      .all(email, email) as { action: string }[];
    expect(trail.map((r) => r.action)).toEqual(["signup", "signin_failed", "email_confirmed", "signin", "signin"]);
  });

  test("resend answers alike for any address and mails only an account waiting for confirmation", async () => {
    const before = sink.mails.length;
    const unknown = await authPost(srv.url, "confirm/resend", { email: freshEmail("nobody") });
    expect(unknown.status).toBe(202);
    expect(sink.mails.length).toBe(before);
  });

  test("a mail server that refuses the recipient, or drops the connection: 502 mail_failed, and no account is left", async () => {
    for (const s of [refusingSrv, droppingSrv]) {
      const email = freshEmail("lost");
      const res = await signup(s.url, email);
      expect([res.status, res.code]).toEqual([502, "mail_failed"]);
      expect(accounts(s, email)).toBe(0);
    }
  });
});
