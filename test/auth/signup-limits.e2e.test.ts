import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createAccount } from "../../src/auth/accounts.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { freshEmail, loginFrom, PASSWORD, signupFrom } from "./auth-calls.ts";

useLongTimeout();

let rated: TestServer, closed: TestServer, domains: TestServer;
beforeAll(() => {
  rated = startTestServer({ engine: scriptedEngine(), env: { TRUST_PROXY: "127.0.0.1", SIGNUP_PER_HOUR: "3" } });
  closed = startTestServer({ engine: scriptedEngine(), env: { SIGNUP: "closed" } });
  domains = startTestServer({ engine: scriptedEngine(), env: { SIGNUP_DOMAINS: "acme.test, @Bücher.test" } });
});
afterAll(() => Promise.all([rated.stop(100), closed.stop(100), domains.stop(100)]));

describe("sign-up per client", () => {
  test("SIGNUP_PER_HOUR per client: a burst, then 429 too_many_signups with Retry-After; other clients unaffected", async () => {
    const from = "203.0.113.7";
    const burst: number[] = [];
    for (let i = 0; i < 3; i++) burst.push((await signupFrom(rated.url, freshEmail(), from)).status);
    expect(burst).toEqual([201, 201, 201]);
    const over = await signupFrom(rated.url, freshEmail(), from);
    expect([over.status, over.code]).toEqual([429, "too_many_signups"]);
    // One token comes back every 20 minutes at 3 per hour.
    expect(Number(over.retryAfter)).toBeGreaterThan(1100);
    expect(Number(over.retryAfter)).toBeLessThanOrEqual(1200);
    expect((await signupFrom(rated.url, freshEmail(), "203.0.113.8")).status).toBe(201);
  });

  test("an email_taken answer costs a sign-up too (probing which emails have accounts is rated)", async () => {
    const from = "203.0.113.9";
    const email = freshEmail();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await signupFrom(rated.url, email, from)).status);
    expect(answers).toEqual([201, 409, 409, 429]);
  });

  test("a flood of sign-ups from many clients: the ones beyond a short queue are refused at once, sign-in still works", async () => {
    const srv = startTestServer({ engine: scriptedEngine(), env: { TRUST_PROXY: "127.0.0.1" } });
    try {
      const user = freshEmail();
      expect((await signupFrom(srv.url, user, "198.51.100.1")).status).toBe(201);
      const flood = Array.from({ length: 150 }, (_, i) =>
        signupFrom(srv.url, freshEmail("flood"), `10.${i >> 8}.${i & 255}.1`),
      );
      const login = loginFrom(srv.url, user, PASSWORD, "198.51.100.2");
      const answers = await Promise.all(flood);
      expect((await login).status).toBe(200);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((a) => a.code === "too_many_signups" && Number(a.retryAfter) > 0)).toBe(true);
      expect(answers.every((a) => a.status === 201 || a.status === 429)).toBe(true);
    } finally {
      await srv.stop(100);
    }
  });
});

describe("who may sign up (SIGNUP, SIGNUP_DOMAINS)", () => {
  test("SIGNUP=closed: 403 signup_not_allowed; accounts made by the CLI still sign in", async () => {
    const refused = await signupFrom(closed.url, freshEmail());
    expect([refused.status, refused.code]).toEqual([403, "signup_not_allowed"]);
    const email = freshEmail("ops");
    await createAccount(closed.deps.store, email, PASSWORD, "pro"); // what `account create` does
    expect((await loginFrom(closed.url, email, PASSWORD)).status).toBe(200);
  });

  test("SIGNUP_DOMAINS: only those domains, exactly (no subdomains, no look-alikes), any case", async () => {
    const code = async (email: string) => {
      const a = await signupFrom(domains.url, email);
      return a.code ?? a.status;
    };
    expect(await code(`a${crypto.randomUUID().slice(0, 6)}@acme.test`)).toBe(201);
    expect(await code(`b${crypto.randomUUID().slice(0, 6)}@ACME.test`)).toBe(201);
    expect(await code(`c${crypto.randomUUID().slice(0, 6)}@bücher.test`)).toBe(201);
    expect(await code(`d${crypto.randomUUID().slice(0, 6)}@x.acme.test`)).toBe("signup_not_allowed");
    expect(await code(`e${crypto.randomUUID().slice(0, 6)}@evil-acme.test`)).toBe("signup_not_allowed");
    expect(await code(`f${crypto.randomUUID().slice(0, 6)}@acme.test.evil.test`)).toBe("signup_not_allowed");
  });
});
