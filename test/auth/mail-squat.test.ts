import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OidcFixture, startOidcProvider } from "../fixtures/oidc-provider.ts";
import { linkIn, type SmtpSink, startSmtpSink } from "../fixtures/smtp-sink.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { authPost } from "./auth-calls.ts";
import { callbackOf, freshBase, oidcEnv, signIn } from "./oidc/idp-browser.ts";

useLongTimeout();

// docs/decisions/0113-the-mailbox-owner-sets-the-password.md: with mail, sign-up domains and an
// identity provider on, a mailed link confirms the person who proves the mailbox, never the
// password an outsider chose when signing up with someone else's address.
const BASE = freshBase();
const SQUATTER = "squatter's password";
const OWNER = "the owner's own password";
let sink: SmtpSink, idp: OidcFixture, srv: TestServer;
beforeAll(async () => {
  sink = startSmtpSink();
  idp = await startOidcProvider([callbackOf(BASE)]);
  srv = startTestServer({
    engine: scriptedEngine(),
    env: {
      ...oidcEnv(idp, BASE),
      PUBLIC_URL: `${BASE}/`,
      SMTP_URL: sink.url,
      MAIL_FROM: "rq@mail.test",
      SIGNUP_DOMAINS: "corp.test",
      SIGNUP_PER_HOUR: "100",
    },
  });
});
afterAll(async () => {
  await srv.stop(100);
  idp.stop();
  sink.stop();
});

const signup = (email: string, password: string) => authPost(BASE, "signup", { email, password });
const login = (email: string, password: string) => authPost(BASE, "login", { email, password });
/** Signs up and returns the link mailed for it. */
async function mailedSignup(email: string, password: string): Promise<string> {
  const mail = sink.next();
  expect((await signup(email, password)).status).toBe(202);
  return linkIn(await mail);
}
/** A minute later: the address's links moved back rather than the clock waited on. */
const aMinuteLater = (email: string) =>
  srv.sql.run(
    "UPDATE email_confirmations SET created_at = ? WHERE account_id = (SELECT id FROM accounts WHERE email = ?)",
    [new Date(Date.now() - 120_000).toISOString(), email],
  );
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
/** What a mail scanner does: a bare GET of the link, redirects followed, no form filled. */
const scan = async (link: string) => {
  const res = await fetch(link, { redirect: "manual" });
  const page = await fetch(new URL(res.headers.get("location")!, BASE));
  expect(page.status).toBe(200);
  return res;
};
const confirm = (token: string, password: string) =>
  new Client(BASE).req("POST", "/api/v1/auth/confirm", { token, password }).then(async (res) => ({
    res,
    body: (await res.json()) as { email?: string; errors?: { code: string }[] },
  }));

describe("a mail link confirms whoever proves the mailbox", () => {
  test("a scanner's GET activates nothing; the owner's SSO then takes the address over and the squatter's password is refused", async () => {
    const email = "alice@corp.test";
    const link = await mailedSignup(email, SQUATTER);
    const opened = await scan(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`/confirm#token=${tokenOf(link)}`);
    const early = await login(email, SQUATTER);
    expect([early.status, early.code]).toEqual([403, "email_not_confirmed"]);

    idp.users.set("alice", { email, email_verified: true });
    const { b, res } = await signIn(BASE, "alice");
    expect(res.headers.get("location")).toBe("/");
    const alice = new Client(BASE);
    alice.cookie = `auth_token=${b.cookie(BASE, "auth_token")}`;
    await alice.createKey("alice's own");
    expect((await login(email, SQUATTER)).status).toBe(401);
    // The link the squatter's sign-up mailed died with the takeover.
    const late = await confirm(tokenOf(link), SQUATTER);
    expect([late.res.status, late.body.errors?.[0]?.code]).toEqual([400, "confirmation_invalid"]);
    expect((await login(email, SQUATTER)).status).toBe(401);
  });

  test("the owner signing up while a squat is pending takes the address back: only the new link works, and it sets the owner's password", async () => {
    const email = "bob@corp.test";
    const squatLink = await mailedSignup(email, SQUATTER);
    aMinuteLater(email);
    const ownLink = await mailedSignup(email, OWNER);
    expect(ownLink).not.toBe(squatLink);

    const dead = await confirm(tokenOf(squatLink), SQUATTER);
    expect([dead.res.status, dead.body.errors?.[0]?.code]).toEqual([400, "confirmation_invalid"]);
    expect((await scan(ownLink)).headers.get("location")).toBe(`/confirm#token=${tokenOf(ownLink)}`);
    const done = await confirm(tokenOf(ownLink), OWNER);
    expect([done.res.status, done.body.email]).toEqual([200, email]);
    expect(done.res.headers.getSetCookie().some((c) => c.startsWith("auth_token="))).toBe(true);

    expect((await login(email, SQUATTER)).status).toBe(401);
    expect((await login(email, OWNER)).status).toBe(200);
    const used = await confirm(tokenOf(ownLink), SQUATTER);
    expect([used.res.status, used.body.errors?.[0]?.code]).toEqual([400, "confirmation_invalid"]);
  });

  test("whoever holds the link chooses the password: following a squatter's link sets the owner's, not the squatter's", async () => {
    const email = "carol@corp.test";
    const link = await mailedSignup(email, SQUATTER);
    expect((await confirm(tokenOf(link), OWNER)).res.status).toBe(200);
    expect((await login(email, SQUATTER)).status).toBe(401);
    expect((await login(email, OWNER)).status).toBe(200);
  });

  test("sign-ups of a pending address mail it at most once a minute", async () => {
    const email = "dave@corp.test";
    await mailedSignup(email, SQUATTER);
    const again = await signup(email, OWNER);
    expect([again.status, again.code, again.retryAfter]).toEqual([429, "too_many_signups", "60"]);
  });
});
