import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

let srv: InProcessServer;
beforeAll(() => {
  srv = startInProcess({ engine: scriptedEngine() });
});
afterAll(() => srv.stop(100));

describe("accounts and sessions", () => {
  test("signup sets an HttpOnly SameSite=Lax auth_token and /me answers", async () => {
    const c = new Client(srv);
    const res = await c.req("POST", "/api/v1/auth/signup", { email: "Alice@Example.com", password: "s3cret-password" });
    expect(res.status).toBe(201);
    const set = res.headers.get("set-cookie")!;
    expect(set).toMatch(/^auth_token=[A-Za-z0-9_-]{20,};/);
    expect(set).toContain("HttpOnly");
    expect(set).toContain("SameSite=Lax");
    expect(set).toContain("Path=/");
    expect(set).not.toContain("Secure");
    const me = await c.req("GET", "/api/v1/me");
    expect(me.status).toBe(200);
    const body = (await me.json()) as Record<string, unknown>;
    expect(body).toEqual({
      id: expect.any(String),
      email: "alice@example.com",
      plan: "free",
      created_at: expect.any(String),
    });
    expect(JSON.stringify(body)).not.toContain("password");
  });

  test("email taken → 409 email_taken (case-insensitive)", async () => {
    const c = new Client(srv);
    await c.signup("bob@example.com");
    const res = await new Client(srv).req("POST", "/api/v1/auth/signup", {
      email: "BOB@example.com",
      password: "another-password",
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ errors: [{ code: "email_taken", message: expect.any(String) }] });
  });

  test("invalid signup bodies → 400 invalid_request without echoing the password", async () => {
    const c = new Client(srv);
    for (const body of [
      { email: "x@example.com", password: "short" },
      { email: "not-an-email", password: "long-enough-pw" },
      { password: "long-enough-pw" },
      "{broken",
      { email: 5, password: "long-enough-pw-hunter2" },
    ]) {
      const res = await c.req("POST", "/api/v1/auth/signup", body);
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(JSON.parse(text).errors[0].code).toBe("invalid_request");
      expect(text).not.toContain("hunter2");
      expect(text).not.toContain("long-enough-pw");
    }
  });

  test("login: same 401 for unknown email and wrong password; success sets a session", async () => {
    const c = new Client(srv);
    const { email, password } = await c.signup();
    const wrong = await new Client(srv).req("POST", "/api/v1/auth/login", { email, password: "wrong-password" });
    const unknown = await new Client(srv).req("POST", "/api/v1/auth/login", {
      email: "nobody@example.com",
      password: "wrong-password",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
    const d = new Client(srv);
    const ok = await d.req("POST", "/api/v1/auth/login", { email: email.toUpperCase(), password });
    expect(ok.status).toBe(200);
    expect((await d.req("GET", "/api/v1/me")).status).toBe(200);
  });

  test("repeated failures are throttled with 429 too_many_attempts and Retry-After", async () => {
    const c = new Client(srv);
    const { email } = await c.signup();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await new Client(srv).req("POST", "/api/v1/auth/login", { email, password: "wrong-password" })).status,
      );
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const res = await new Client(srv).req("POST", "/api/v1/auth/login", { email, password: "wrong-password" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("too_many_attempts");
  });

  test("logout ends the session on the server, not only in the browser", async () => {
    const c = new Client(srv);
    await c.signup();
    const saved = c.cookie!;
    const out = await c.req("POST", "/api/v1/auth/logout");
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const replay = await srv.fetch(srv.url + "/api/v1/me", { headers: { cookie: saved } });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ errors: [{ code: "unauthorized", message: expect.any(String) }] });
  });

  test("an expired session is refused by the server", async () => {
    const c = new Client(srv);
    await c.signup();
    srv.sql.query("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    expect((await c.req("GET", "/api/v1/me")).status).toBe(401);
  });

  test("the session row stores a hash, never the cookie token", async () => {
    const c = new Client(srv);
    await c.signup();
    const token = c.cookie!.split("=")[1]!;
    const rows = srv.sql.query("SELECT * FROM sessions").all();
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  test("Secure cookie when PUBLIC_URL is https", async () => {
    const s = startInProcess({ engine: scriptedEngine(), env: { PUBLIC_URL: "https://rq.example.com" } });
    try {
      const res = await new Client(s).req("POST", "/api/v1/auth/signup", {
        email: "s@example.com",
        password: "long-enough-pw",
      });
      expect(res.headers.get("set-cookie")).toContain("; Secure");
    } finally {
      await s.stop(100);
    }
  });

  test("no password appears in any log line", () => {
    const all = srv.logs.join("\n");
    expect(all).not.toContain("correct horse battery");
    expect(all).not.toContain("wrong-password");
    expect(all).not.toContain("s3cret-password");
    expect(all).not.toContain("auth_token=");
  });
});
