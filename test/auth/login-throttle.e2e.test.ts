import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { type AuthAnswer, cookieNamed, freshEmail, loginFrom, PASSWORD, signupFrom } from "./auth-calls.ts";

useLongTimeout();

// Behind the nginx of README "Deployment": every request comes from 127.0.0.1, with or without TRUST_PROXY.
let proxied: TestServer, unproxied: TestServer;
beforeAll(() => {
  proxied = startTestServer({ engine: scriptedEngine(), env: { TRUST_PROXY: "127.0.0.1", SIGNUP_PER_HOUR: "1000" } });
  unproxied = startTestServer({ engine: scriptedEngine(), env: { SIGNUP_PER_HOUR: "1000" } });
});
afterAll(() => Promise.all([proxied.stop(100), unproxied.stop(100)]));

const ATTACKER = "203.0.113.66";

/** Wrong passwords for `n` different (unknown) emails from one client: password spraying. */
async function spray(base: string, n: number, from?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await loginFrom(base, freshEmail("victim"), "wrong-password", from)).status);
  return out;
}

/** A Cookie header carrying the device cookie an answer set. */
const deviceOf = (a: AuthAnswer) => ({ cookie: cookieNamed(a, "rq_device")! });

describe("sign-in throttling per client and per account", () => {
  test("an attacker spraying from one client is blocked; another user's correct sign-in from another client is not", async () => {
    const user = freshEmail();
    expect((await signupFrom(proxied.url, user, "198.51.100.7")).status).toBe(201);
    const attack = await spray(proxied.url, 32, ATTACKER);
    expect(attack.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(attack.slice(30)).toEqual([429, 429]);
    expect((await loginFrom(proxied.url, user, PASSWORD, ATTACKER)).status).toBe(429);
    // A new browser (no device cookie) of another user, from another client.
    expect((await loginFrom(proxied.url, user, PASSWORD, "198.51.100.8")).status).toBe(200);
  });

  test("TRUST_PROXY unset: an attacker behind the same proxy address does not lock out a user who signed in there before", async () => {
    const user = freshEmail();
    const joined = await signupFrom(unproxied.url, user);
    expect(joined.status).toBe(201);
    const attack = await spray(unproxied.url, 31);
    expect(attack.at(-1)).toBe(429);
    // Decided (docs/decisions/0044-sign-in-throttling-locks-no-one-out.md): a first sign-in from a new browser shares the proxy address's
    // block until TRUST_PROXY is set…
    const fresh = await loginFrom(unproxied.url, user, PASSWORD);
    expect([fresh.status, fresh.code]).toEqual([429, "too_many_attempts"]);
    expect(Number(fresh.retryAfter)).toBeGreaterThan(0);
    // …while a browser that signed in to this email before is counted on its own.
    expect((await loginFrom(unproxied.url, user, PASSWORD, undefined, deviceOf(joined))).status).toBe(200);
  });

  test("guessing one account from many clients blocks the account for new browsers, never for its owner's known browser", async () => {
    const victim = freshEmail("owner");
    const joined = await signupFrom(proxied.url, victim, "198.51.100.20");
    for (let i = 0; i < 6; i++) await loginFrom(proxied.url, victim, "wrong-password", `203.0.113.${100 + i}`);
    expect((await loginFrom(proxied.url, victim, PASSWORD, "198.51.100.21")).status).toBe(429);
    expect((await loginFrom(proxied.url, victim, PASSWORD, "198.51.100.20", deviceOf(joined))).status).toBe(200);
  });

  test("a device cookie counts only for the email it was issued for, and only as issued", async () => {
    const victim = freshEmail("owner");
    await signupFrom(proxied.url, victim, "198.51.100.30");
    const mine = await signupFrom(proxied.url, freshEmail("attacker"), "203.0.113.30");
    const forged = `${cookieNamed(mine, "rq_device")!.split(".")[0]}.AAAA`;
    const tries: number[] = [];
    for (let i = 0; i < 7; i++) {
      const cookie = i % 2 ? deviceOf(mine) : { cookie: forged };
      tries.push((await loginFrom(proxied.url, victim, "wrong-password", `203.0.113.${30 + i}`, cookie)).status);
    }
    expect(tries.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(tries.slice(5)).toEqual([429, 429]);
  });

  test("a known browser guessing wrong is itself blocked after five failures", async () => {
    const user = freshEmail();
    const joined = await signupFrom(proxied.url, user, "198.51.100.40");
    const tries: number[] = [];
    for (let i = 0; i < 6; i++)
      tries.push((await loginFrom(proxied.url, user, "wrong-password", "198.51.100.40", deviceOf(joined))).status);
    expect(tries).toEqual([401, 401, 401, 401, 401, 429]);
  });

  test("40 simultaneous guesses on one account: at most the five free ones are checked", async () => {
    const srv = startTestServer({ engine: scriptedEngine() });
    try {
      const user = freshEmail();
      await signupFrom(srv.url, user);
      const guesses = Array.from({ length: 40 }, (_, i) => (i === 39 ? PASSWORD : `wrong-password-${i}`));
      const answers = await Promise.all(guesses.map((p) => loginFrom(srv.url, user, p)));
      const counts: Record<number, number> = {};
      for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
      expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(5);
      expect(counts[429]).toBeGreaterThanOrEqual(35);
    } finally {
      await srv.stop(100);
    }
  });
});
