import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  type IdTokenParts,
  type OidcFixture,
  type Reassembly,
  startOidcProvider,
} from "../../fixtures/oidc-provider.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { Client, startTestServer, type TestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { atIdp, Browser, callbackOf, errorOf, freshBase, oidcEnv, signIn, start } from "./idp-browser.ts";

useLongTimeout();

const BASE = freshBase(); // the main app server
const DOMAINS = freshBase(); // OIDC_ALLOWED_DOMAINS=acme.test
const ALIAS = freshBase(); // OIDC_ISSUER names the provider under a path it doesn't declare
let idp: OidcFixture, srv: TestServer, domainSrv: TestServer, aliasSrv: TestServer;

beforeAll(async () => {
  idp = await startOidcProvider([callbackOf(BASE), callbackOf(DOMAINS), callbackOf(ALIAS)]);
  srv = startTestServer({ engine: scriptedEngine(), env: oidcEnv(idp, BASE, { OIDC_NAME: "Acme SSO" }) });
  domainSrv = startTestServer({
    engine: scriptedEngine(),
    env: oidcEnv(idp, DOMAINS, { OIDC_ALLOWED_DOMAINS: "acme.test" }),
  });
  aliasSrv = startTestServer({ engine: scriptedEngine(), env: oidcEnv(idp, ALIAS, { OIDC_ISSUER: idp.aliasIssuer }) });
});
afterAll(async () => {
  await Promise.all([srv.stop(100), domainSrv.stop(100), aliasSrv.stop(100)]);
  idp.stop();
});

const count = (s: TestServer, sql: string) => (s.sql.query(sql).get() as { n: number }).n;
const me = async (base: string, b: Browser) =>
  (
    await fetch(`${base}/api/v1/me`, { headers: { cookie: `auth_token=${b.cookie(base, "auth_token")}` } })
  ).json() as Promise<{ id: string; email: string; plan: string }>;

describe("OpenID Connect sign-in", () => {
  test("GET /api/v1/auth/providers names the button", async () => {
    expect(await (await fetch(`${BASE}/api/v1/auth/providers`)).json()).toEqual({
      password: true,
      oidc: { name: "Acme SSO", start_url: "/api/v1/auth/oidc/start" },
    });
  });

  test("full flow: start → provider login → callback → the session works on /api/console/keys; a replayed callback fails", async () => {
    idp.users.set("alice", { email: "Alice@Acme.test", email_verified: true });
    const b = new Browser();
    const authUrl = await start(b, BASE);
    const flowCookie = b.setCookies.find((c) => c.startsWith("rq_oidc="))!;
    for (const attr of ["HttpOnly", "SameSite=Lax", "Max-Age=600", "Path=/api/v1/auth/oidc"])
      expect(flowCookie).toContain(attr);
    const cb = await atIdp(b, authUrl, BASE, "alice");
    const res = await b.go(cb);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const session = res.headers.getSetCookie().find((c) => c.startsWith("auth_token="))!;
    expect(session).toMatch(/^auth_token=[\w-]{20,}; Path=\/; HttpOnly; SameSite=Lax; Expires=/); // as password login sets it
    expect(b.cookie(BASE, "rq_oidc")).toBeUndefined(); // the flow cookie is cleared
    const token = b.cookie(BASE, "auth_token")!;
    const keys = await fetch(`${BASE}/api/console/keys`, { headers: { cookie: `auth_token=${token}` } });
    expect(keys.status).toBe(200);
    expect(await keys.json()).toEqual({ keys: [], next: null });
    const who = await me(BASE, b);
    expect(who).toMatchObject({ email: "alice@acme.test", plan: "free" });
    expect(
      count(srv, `SELECT COUNT(*) AS n FROM accounts WHERE email = 'alice@acme.test' AND password_hash IS NULL`),
    ).toBe(1);

    // Replay: the same callback URL, with the flow cookie the browser had.
    const replay = new Browser();
    replay.jars.set(new URL(BASE).origin, new Map([["rq_oidc", flowCookie.split(";")[0]!.slice("rq_oidc=".length)]]));
    const again = await replay.go(cb);
    expect(errorOf(again)).toBe("invalid_state");
    expect(replay.cookie(BASE, "auth_token")).toBeUndefined();

    // A second sign-in with the same subject lands in the same account.
    const second = await signIn(BASE, "alice");
    expect(second.res.headers.get("location")).toBe("/");
    expect((await me(BASE, second.b)).id).toBe(who.id);
    expect(count(srv, `SELECT COUNT(*) AS n FROM identities WHERE subject = 'alice'`)).toBe(1);
  });

  test("the subject, not the email, identifies the user: a changed email at the provider keeps the account", async () => {
    idp.users.set("bruno", { email: "bruno@acme.test", email_verified: true });
    const first = await signIn(BASE, "bruno");
    idp.users.set("bruno", { email: "bruno.new@acme.test", email_verified: true });
    const second = await signIn(BASE, "bruno");
    expect((await me(BASE, second.b)).id).toBe((await me(BASE, first.b)).id);
  });

  test("links to an existing password account only when the provider verified the email", async () => {
    await new Client(BASE).signup("carol@acme.test");
    idp.users.set("carol-unverified", { email: "carol@acme.test", email_verified: false });
    const denied = await signIn(BASE, "carol-unverified");
    expect(errorOf(denied.res)).toBe("email_not_verified");
    expect(denied.b.cookie(BASE, "auth_token")).toBeUndefined();
    expect(count(srv, `SELECT COUNT(*) AS n FROM identities WHERE subject = 'carol-unverified'`)).toBe(0);

    idp.users.set("carol", { email: "carol@acme.test", email_verified: true });
    const ok = await signIn(BASE, "carol");
    expect(ok.res.headers.get("location")).toBe("/");
    expect((await me(BASE, ok.b)).email).toBe("carol@acme.test");
    expect(count(srv, `SELECT COUNT(*) AS n FROM accounts WHERE email = 'carol@acme.test'`)).toBe(1);
  });

  test("a first sign-in with an unverified email and no clash creates the account", async () => {
    idp.users.set("uma", { email: "uma@elsewhere.test", email_verified: false });
    const { res, b } = await signIn(BASE, "uma");
    expect(res.headers.get("location")).toBe("/");
    expect((await me(BASE, b)).email).toBe("uma@elsewhere.test");
  });

  test("denied consent lands on /signin?error=access_denied; nothing is created", async () => {
    idp.users.set("dave", { email: "dave@acme.test", email_verified: true });
    const { res, b } = await signIn(BASE, "dave", true);
    expect(errorOf(res)).toBe("access_denied");
    expect(b.cookie(BASE, "auth_token")).toBeUndefined();
    expect(count(srv, `SELECT COUNT(*) AS n FROM accounts WHERE email = 'dave@acme.test'`)).toBe(0);
  });

  test("bad state: forged, from another browser, or an unsolicited error answer → invalid_state", async () => {
    idp.users.set("dave", { email: "dave@acme.test", email_verified: true });
    const b = new Browser();
    const cb = await atIdp(b, await start(b, BASE), BASE, "dave");
    // The forgery carries the real flow cookie (a copy, since a failure clears the cookie).
    const withFlowCookie = () => {
      const c = new Browser();
      c.jars.set(new URL(BASE).origin, new Map([["rq_oidc", b.cookie(BASE, "rq_oidc")!]]));
      return c;
    };
    const forged = new URL(cb);
    forged.searchParams.set("state", "forged-state");
    expect(errorOf(await withFlowCookie().go(forged.href))).toBe("invalid_state");
    forged.searchParams.delete("state");
    expect(errorOf(await withFlowCookie().go(forged.href))).toBe("invalid_state");
    expect(errorOf(await new Browser().go(cb))).toBe("invalid_state"); // login CSRF: the victim has no flow cookie
    expect(errorOf(await new Browser().go(`${BASE}/api/v1/auth/oidc/callback?error=access_denied`))).toBe(
      "invalid_state",
    );
    expect(errorOf(await new Browser().go(`${BASE}/api/v1/auth/oidc/callback`))).toBe("invalid_state");
    // A garbled flow cookie is the same: no 500.
    const g = new Browser();
    g.jars.set(new URL(BASE).origin, new Map([["rq_oidc", "garbage.%%%"]]));
    expect(errorOf(await g.go(`${cb}`))).toBe("invalid_state");
    // The state was not consumed by the forgeries: the real browser still completes.
    expect((await b.go(cb)).headers.get("location")).toBe("/");
    expect(count(srv, `SELECT COUNT(*) AS n FROM accounts WHERE email = 'dave@acme.test'`)).toBe(1);
  });

  // Each altered ID token must be refused by its own check; "untouched" proves the
  // fixture's re-signing yields tokens we accept, so the refusals aren't an artefact.
  const now = () => Math.floor(Date.now() / 1000);
  const cases: [string, (t: IdTokenParts) => Reassembly, RegExp | null][] = [
    ["untouched but re-signed", () => "resign", null],
    [
      "tampered claims (email swapped, signature kept)",
      (t) => {
        Object.assign(t.claims, { email: "ceo@acme.test", email_verified: true });
        return "keep-signature";
      },
      /signature verification failed/,
    ],
    [
      "unsigned (alg none)",
      (t) => {
        Object.assign(t.claims, { email: "ceo@acme.test", email_verified: true });
        return "unsigned";
      },
      /"alg"/,
    ],
    [
      "wrong issuer, validly signed",
      (t) => {
        t.claims.iss = "http://127.0.0.1:9/other-idp";
        return "resign";
      },
      /"iss"/,
    ],
    [
      "wrong audience, validly signed",
      (t) => {
        t.claims.aud = "another-client";
        return "resign";
      },
      /"aud"/,
    ],
    [
      "expired, validly signed",
      (t) => {
        Object.assign(t.claims, { iat: now() - 600, exp: now() - 300 });
        return "resign";
      },
      /"exp"/,
    ],
    [
      "wrong nonce, validly signed",
      (t) => {
        t.claims.nonce = "nonce-of-another-flow";
        return "resign";
      },
      /"nonce"/,
    ],
  ];
  for (const [name, rewrite, logged] of cases) {
    test(`ID token ${name} → ${logged ? "oidc_failed, nothing created" : "accepted"}`, async () => {
      const sub = `tok-${crypto.randomUUID().slice(0, 8)}`;
      idp.users.set(sub, { email: `${sub}@acme.test`, email_verified: true });
      idp.rewriteIdToken = rewrite;
      try {
        const before = srv.logs.length;
        const { res, b } = await signIn(BASE, sub);
        if (!logged) {
          expect(res.headers.get("location")).toBe("/");
          return;
        }
        expect(errorOf(res)).toBe("oidc_failed");
        expect(b.cookie(BASE, "auth_token")).toBeUndefined();
        expect(
          count(srv, `SELECT COUNT(*) AS n FROM accounts WHERE email IN ('${sub}@acme.test', 'ceo@acme.test')`),
        ).toBe(0);
        const failure = srv.logs.slice(before).find((l) => l.includes("oidc_signin_failed"))!;
        expect((JSON.parse(failure) as { error: string }).error).toMatch(logged);
      } finally {
        idp.rewriteIdToken = null;
      }
    });
  }

  test("allowed domains: only a verified email in the list signs in (exact domain match)", async () => {
    idp.users.set("erin", { email: "erin@ACME.test", email_verified: true });
    idp.users.set("mallory", { email: "mallory@evil.test", email_verified: true });
    idp.users.set("sly", { email: "sly@acme.test", email_verified: false });
    idp.users.set("sub", { email: "sub@x.acme.test", email_verified: true });
    expect(errorOf((await signIn(DOMAINS, "mallory")).res)).toBe("domain_not_allowed");
    expect(errorOf((await signIn(DOMAINS, "sly")).res)).toBe("domain_not_allowed");
    expect(errorOf((await signIn(DOMAINS, "sub")).res)).toBe("domain_not_allowed");
    expect(count(domainSrv, `SELECT COUNT(*) AS n FROM accounts`)).toBe(0);
    expect(errorOf((await signIn(DOMAINS, "erin")).res)).toBeNull();
    expect(count(domainSrv, `SELECT COUNT(*) AS n FROM accounts`)).toBe(1);
  });

  test("wrong issuer configured (discovery names another issuer) → oidc_failed at start", async () => {
    const res = await fetch(`${ALIAS}/api/v1/auth/oidc/start`, { redirect: "manual" });
    expect(errorOf(res)).toBe("oidc_failed");
    expect(aliasSrv.logs.find((l) => l.includes("oidc_signin_failed"))).toMatch(/issuer/);
  });

  test("an unreachable provider → oidc_failed at start, quickly", async () => {
    const s = startTestServer({
      engine: scriptedEngine(),
      env: {
        OIDC_ISSUER: "http://127.0.0.1:9",
        OIDC_CLIENT_ID: "x",
        OIDC_CLIENT_SECRET: "y",
      },
    });
    try {
      expect(errorOf(await fetch(`${s.url}/api/v1/auth/oidc/start`, { redirect: "manual" }))).toBe("oidc_failed");
    } finally {
      await s.stop(100);
    }
  });

  test("an expired authorization code → oidc_failed; a client_secret_post provider works", async () => {
    const base = freshBase(),
      postBase = freshBase();
    const short = await startOidcProvider([callbackOf(base)], { codeTtlSeconds: 1 });
    const post = await startOidcProvider([callbackOf(postBase)], { authMethod: "client_secret_post" });
    const s = startTestServer({ engine: scriptedEngine(), env: oidcEnv(short, base) });
    const p = startTestServer({ engine: scriptedEngine(), env: oidcEnv(post, postBase) });
    try {
      short.users.set("frank", { email: "frank@acme.test", email_verified: true });
      const b = new Browser();
      const cb = await atIdp(b, await start(b, base), base, "frank");
      // The provider runs in this process: move its clock past the code's 1 s lifetime instead of waiting.
      const realNow = Date.now;
      Date.now = () => realNow() + 2_000;
      try {
        expect(errorOf(await b.go(cb))).toBe("oidc_failed");
      } finally {
        Date.now = realNow;
      }
      expect(s.logs.find((l) => l.includes("oidc_signin_failed"))).toContain("invalid_grant");
      expect(count(s, `SELECT COUNT(*) AS n FROM accounts`)).toBe(0);

      post.users.set("gina", { email: "gina@acme.test", email_verified: true });
      expect((await signIn(postBase, "gina")).res.headers.get("location")).toBe("/");
    } finally {
      await Promise.all([s.stop(100), p.stop(100)]);
      short.stop();
      post.stop();
    }
  });

  test("without OIDC configured: start and callback are 404 not_found, providers says none", async () => {
    const s = startTestServer({ engine: scriptedEngine() });
    try {
      for (const path of ["start", "callback"]) {
        const res = await fetch(`${s.url}/api/v1/auth/oidc/${path}`, { redirect: "manual" });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ errors: [{ code: "not_found", message: expect.any(String) }] });
      }
      expect(await (await fetch(`${s.url}/api/v1/auth/providers`)).json()).toEqual({ password: true, oidc: null });
    } finally {
      await s.stop(100);
    }
  });

  test("no secret reaches the logs", () => {
    const all = [srv, domainSrv, aliasSrv].flatMap((s) => s.logs).join("\n");
    expect(all).not.toContain(idp.clientSecret);
    expect(all).not.toMatch(/auth_token=|"code":"[\w-]{20,}"|Traceback|\n\s+at /);
  });
});
