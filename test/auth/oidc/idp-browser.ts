import { expect } from "bun:test";
import type { OidcFixture } from "../../fixtures/oidc-provider.ts";

/*
 * A browser walking the sign-in flow of the real OpenID Provider fixture
 * (test/fixtures/oidc-provider.ts) against a running server, for the OIDC tests.
 */

// The redirect URI comes from PUBLIC_URL/PORT, so each app server needs its port before the
// provider (which registers the URI) starts: random ports below the ephemeral range.
const ports = new Set<number>();
export function freshBase(): string {
  let p: number;
  do p = 10000 + Math.floor(Math.random() * 20000);
  while (ports.has(p));
  ports.add(p);
  return `http://127.0.0.1:${p}`;
}
export const callbackOf = (base: string) => `${base}/api/v1/auth/oidc/callback`;
export const portOf = (base: string) => new URL(base).port;
/** A server's settings for sign-in by the provider `fx`, listening at `base`. */
export const oidcEnv = (fx: OidcFixture, base: string, extra: Record<string, string> = {}) => ({
  PORT: portOf(base),
  OIDC_ISSUER: fx.issuer,
  OIDC_CLIENT_ID: fx.clientId,
  OIDC_CLIENT_SECRET: fx.clientSecret,
  ...extra,
});

/** A browser without JavaScript: one cookie jar per origin, redirects followed by hand. */
export class Browser {
  jars = new Map<string, Map<string, string>>();
  setCookies: string[] = [];
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const jar = this.jars.get(u.origin) ?? new Map<string, string>();
    this.jars.set(u.origin, jar);
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      this.setCookies.push(c);
      const [pair, ...attrs] = c.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i).trim(),
        value = pair!.slice(i + 1).trim();
      if (!value || attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()))) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }
  cookie(origin: string, name: string) {
    return this.jars.get(origin)?.get(name);
  }
}

/** GET /oidc/start on `base`; checks the authorization request carries PKCE S256, state and nonce. */
export async function start(b: Browser, base: string): Promise<string> {
  const res = await b.go(`${base}/api/v1/auth/oidc/start`);
  expect(res.status).toBe(302);
  const loc = new URL(res.headers.get("location")!);
  expect(loc.searchParams.get("code_challenge_method")).toBe("S256");
  expect(loc.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
  expect(loc.searchParams.get("state")).toBeTruthy();
  expect(loc.searchParams.get("nonce")).toBeTruthy();
  expect(loc.searchParams.get("redirect_uri")).toBe(callbackOf(base));
  return loc.href;
}

/** Walks the provider's dev interactions (login, consent) to the redirect back to `base`; returns that URL. */
export async function atIdp(b: Browser, authUrl: string, base: string, sub: string, deny = false): Promise<string> {
  let url = authUrl;
  for (let i = 0; i < 20; i++) {
    if (url.startsWith(callbackOf(base))) return url;
    const res = await b.go(url);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location")!, url).href;
      continue;
    }
    const html = await res.text();
    if (deny) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (abort) {
        url = new URL(abort, url).href;
        continue;
      }
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${html.slice(0, 300)}`);
    const body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: "login", login: sub, password: "any" })
      : new URLSearchParams({ prompt: "consent" });
    const post = await b.go(new URL(action, url).href, {
      method: "POST",
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    url = new URL(post.headers.get("location")!, url).href;
  }
  throw new Error("too many steps at the identity provider");
}

/** The whole flow in a fresh browser; returns the callback's answer and the browser. */
export async function signIn(base: string, sub: string, deny = false) {
  const b = new Browser();
  const res = await b.go(await atIdp(b, await start(b, base), base, sub, deny));
  return { b, res };
}

/** `?error=` of a redirect to the sign-in page (null for any other redirect). */
export function errorOf(res: Response): string | null {
  expect(res.status).toBe(302);
  const loc = new URL(res.headers.get("location")!, "http://x.invalid");
  if (loc.pathname !== "/signin") return null;
  expect(loc.searchParams.get("message")!.length).toBeGreaterThan(10);
  expect(loc.searchParams.get("message")).not.toMatch(/\bat .*:\d+|Error:/); // no stack, no exception text
  return loc.searchParams.get("error");
}
