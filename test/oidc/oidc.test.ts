import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startOidcProvider, type OidcFixture } from "../fixtures/oidc-provider.ts";
import { Client, startTestServer, type TestServer } from "../helpers/server.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

const PORT = 10000 + Math.floor(Math.random() * 20000);
const BASE = `http://127.0.0.1:${PORT}`;
let idp: OidcFixture, srv: TestServer;

beforeAll(async () => {
  idp = await startOidcProvider(`${BASE}/api/v1/auth/oidc/callback`);
  srv = startTestServer(scriptedEngine(), { PORT: String(PORT), OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_NAME: "Acme SSO" });
});
afterAll(async () => { await srv.stop(100); idp.stop(); });

/** A browser: one cookie jar per origin, redirects followed by hand. */
class Browser {
  jars = new Map<string, Map<string, string>>();
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const jar = this.jars.get(u.origin) ?? new Map<string, string>();
    this.jars.set(u.origin, jar);
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i).trim(), value = pair!.slice(i + 1).trim();
      if (!value || attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()))) jar.delete(name); else jar.set(name, value);
    }
    return res;
  }
  cookie(origin: string, name: string) { return this.jars.get(origin)?.get(name); }
}

/** Walks the provider's dev interactions (login form, consent form) until it redirects back to us. */
async function signInAtIdp(b: Browser, startUrl: string, sub: string, deny = false): Promise<string> {
  let url = startUrl;
  for (let i = 0; i < 20; i++) {
    const res = await b.go(url);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location")!, url).href;
      if (url.startsWith(`${BASE}/api/v1/auth/oidc/callback`)) return url;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${html.slice(0, 300)}`);
    if (deny) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (abort) { url = new URL(abort, url).href; continue; }
    }
    const body = html.includes('name="login"') ? new URLSearchParams({ prompt: "login", login: sub, password: "any" }) : new URLSearchParams({ prompt: "consent" });
    const post = await b.go(new URL(action, url).href, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    url = new URL(post.headers.get("location")!, url).href;
    if (url.startsWith(`${BASE}/api/v1/auth/oidc/callback`)) return url;
  }
  throw new Error("too many steps at the identity provider");
}

async function startFlow(b: Browser): Promise<string> {
  const res = await b.go(`${BASE}/api/v1/auth/oidc/start`);
  expect(res.status).toBe(302);
  const loc = new URL(res.headers.get("location")!);
  expect(loc.searchParams.get("code_challenge_method")).toBe("S256");
  expect(loc.searchParams.get("state")).toBeTruthy();
  expect(loc.searchParams.get("nonce")).toBeTruthy();
  return loc.href;
}

const errorOf = (res: Response) => new URL(res.headers.get("location")!, BASE).searchParams.get("error");

describe("OpenID Connect sign-in", () => {
  test("providers endpoint names the button", async () => {
    expect(await (await fetch(`${BASE}/api/v1/auth/providers`)).json()).toEqual({ password: true, oidc: { name: "Acme SSO", start_url: "/api/v1/auth/oidc/start" } });
  });

  test("full flow: start → provider login → callback → the session works on the Console; second sign-in reuses the account", async () => {
    idp.users.set("alice", { email: "alice@acme.test", email_verified: true });
    const b = new Browser();
    const cb = await signInAtIdp(b, await startFlow(b), "alice");
    const res = await b.go(cb);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const token = b.cookie(BASE, "auth_token")!;
    expect(token).toBeTruthy();
    const keys = await fetch(`${BASE}/api/console/keys`, { headers: { cookie: `auth_token=${token}` } });
    expect(keys.status).toBe(200);
    const me = await (await fetch(`${BASE}/api/v1/me`, { headers: { cookie: `auth_token=${token}` } })).json() as { id: string; email: string; plan: string };
    expect(me).toMatchObject({ email: "alice@acme.test", plan: "free" });
    // Replaying the same callback (same code, same state) fails.
    const replay = await b.go(cb);
    expect(errorOf(replay)).toBe("invalid_state");
    const b2 = new Browser();
    const res2 = await b2.go(await signInAtIdp(b2, await startFlow(b2), "alice"));
    const me2 = await (await fetch(`${BASE}/api/v1/me`, { headers: { cookie: `auth_token=${b2.cookie(BASE, "auth_token")}` } })).json() as { id: string };
    expect(res2.status).toBe(302);
    expect(me2.id).toBe(me.id);
  });

  test("links to an existing password account only when the provider verified the email", async () => {
    const pw = new Client(BASE);
    await pw.signup("carol@acme.test");
    idp.users.set("carol-unverified", { email: "carol@acme.test", email_verified: false });
    const b = new Browser();
    const denied = await b.go(await signInAtIdp(b, await startFlow(b), "carol-unverified"));
    expect(errorOf(denied)).toBe("email_not_verified");
    expect(b.cookie(BASE, "auth_token")).toBeUndefined();
    expect(srv.deps.db.$client.query("SELECT COUNT(*) AS n FROM identities WHERE subject = 'carol-unverified'").get()).toEqual({ n: 0 });
    idp.users.set("carol", { email: "carol@acme.test", email_verified: true });
    const b2 = new Browser();
    await b2.go(await signInAtIdp(b2, await startFlow(b2), "carol"));
    const me = await (await fetch(`${BASE}/api/v1/me`, { headers: { cookie: `auth_token=${b2.cookie(BASE, "auth_token")}` } })).json() as { email: string };
    expect(me.email).toBe("carol@acme.test");
    expect(srv.deps.db.$client.query("SELECT COUNT(*) AS n FROM accounts WHERE email = 'carol@acme.test'").get()).toEqual({ n: 1 });
  });

  test("denied consent, a bad state and a tampered ID token land on the sign-in page; nothing is created", async () => {
    idp.users.set("dave", { email: "dave@acme.test", email_verified: true });
    const b = new Browser();
    const denied = await b.go(await signInAtIdp(b, await startFlow(b), "dave", true));
    expect(errorOf(denied)).toBe("access_denied");
    expect(new URL(denied.headers.get("location")!, BASE).pathname).toBe("/signin");

    const b2 = new Browser();
    const cb = await signInAtIdp(b2, await startFlow(b2), "dave");
    const forged = new URL(cb);
    forged.searchParams.set("state", "forged-state");
    expect(errorOf(await b2.go(forged.href))).toBe("invalid_state");
    expect(errorOf(await new Browser().go(cb))).toBe("invalid_state");

    idp.tamper = true;
    try {
      const b3 = new Browser();
      const res = await b3.go(await signInAtIdp(b3, await startFlow(b3), "dave"));
      expect(errorOf(res)).toBe("oidc_failed");
      expect(b3.cookie(BASE, "auth_token")).toBeUndefined();
    } finally { idp.tamper = false; }
    expect(srv.deps.db.$client.query("SELECT COUNT(*) AS n FROM accounts WHERE email = 'dave@acme.test'").get()).toEqual({ n: 0 });
    expect(srv.logs.join("\n")).not.toContain("Traceback");
  });

  test("an expired code and a wrong issuer fail cleanly; allowed domains are enforced", async () => {
    const port = 10000 + Math.floor(Math.random() * 20000);
    const base = `http://127.0.0.1:${port}`;
    const short = await startOidcProvider(`${base}/api/v1/auth/oidc/callback`, 1);
    const s = startTestServer(scriptedEngine(), { PORT: String(port), OIDC_ISSUER: short.issuer, OIDC_CLIENT_ID: short.clientId, OIDC_CLIENT_SECRET: short.clientSecret, OIDC_ALLOWED_DOMAINS: "acme.test" });
    const wrong = startTestServer(scriptedEngine(), { OIDC_ISSUER: `${short.issuer}/other`, OIDC_CLIENT_ID: "x", OIDC_CLIENT_SECRET: "y" });
    try {
      short.users.set("erin", { email: "erin@acme.test", email_verified: true });
      short.users.set("mallory", { email: "mallory@evil.test", email_verified: true });
      const go = async (sub: string, wait = 0) => {
        const b = new Browser();
        const start = await b.go(`${base}/api/v1/auth/oidc/start`);
        let url = start.headers.get("location")!;
        for (let i = 0; i < 20 && !url.startsWith(base); i++) {
          const r = await b.go(url);
          if (r.status >= 300 && r.status < 400) { url = new URL(r.headers.get("location")!, url).href; continue; }
          const html = await r.text();
          const action = /<form[^>]*action="([^"]+)"/.exec(html)![1]!;
          const body = html.includes('name="login"') ? new URLSearchParams({ prompt: "login", login: sub, password: "x" }) : new URLSearchParams({ prompt: "consent" });
          url = new URL((await b.go(new URL(action, url).href, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } })).headers.get("location")!, url).href;
        }
        if (wait) await Bun.sleep(wait);
        return errorOf(await b.go(url));
      };
      expect(await go("erin", 2100)).toBe("oidc_failed");
      expect(await go("mallory")).toBe("domain_not_allowed");
      expect(await go("erin")).toBeNull();
      const w = await fetch(`${wrong.url}/api/v1/auth/oidc/start`, { redirect: "manual" });
      expect(w.status).toBe(302);
      expect(errorOf(w)).toBe("oidc_failed");
    } finally { await s.stop(100); await wrong.stop(100); short.stop(); }
  });

  test("without OIDC configured the start endpoint is 404 and providers says none", async () => {
    const s = startTestServer(scriptedEngine());
    try {
      expect((await fetch(`${s.url}/api/v1/auth/oidc/start`, { redirect: "manual" })).status).toBe(404);
      expect(await (await fetch(`${s.url}/api/v1/auth/providers`)).json()).toEqual({ password: true, oidc: null });
    } finally { await s.stop(100); }
  });
});
