import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, query } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { authPost, freshEmail, PASSWORD, signupFrom } from "./auth-calls.ts";

useLongTimeout();

let srv: InProcessServer, pub: InProcessServer;
beforeAll(() => {
  srv = startInProcess({ engine: scriptedEngine(), env: { SIGNUP_PER_HOUR: "1000" } });
  pub = startInProcess({
    engine: scriptedEngine(),
    env: { SIGNUP_PER_HOUR: "1000", PUBLIC_URL: "https://rq.example.com" },
  });
});
afterAll(() => Promise.all([srv.stop(100), pub.stop(100)]));

const FOREIGN = ["https://evil.example", "null", "http://127.0.0.1.evil.example", "https://127.0.0.1"];

async function codeOf(res: Response): Promise<[number, string | undefined]> {
  const body = (await res.json().catch(() => ({}))) as { errors?: { code: string }[] };
  return [res.status, body.errors?.[0]?.code];
}

describe("login CSRF on browsers without Sec-Fetch-Site", () => {
  test("a foreign or null Origin is refused on every cookie write: sign-up, sign-in, sign-out, Console, research", async () => {
    const c = new Client(srv);
    const { email } = await c.signup();
    const k = await c.createKey();
    for (const origin of FOREIGN) {
      const writes: [string, string, unknown][] = [
        ["POST", "/api/v1/auth/signup", { email: freshEmail(), password: PASSWORD }],
        ["POST", "/api/v1/auth/login", { email, password: PASSWORD }],
        ["POST", "/api/v1/auth/logout", undefined],
        ["POST", "/api/console/keys", { name: "evil" }],
        ["DELETE", `/api/console/keys/${k.id}`, undefined],
        ["POST", "/api/v1/research", { query: "q" }],
        ["POST", "/api/v1/research/stream", { query: "q" }],
      ];
      for (const [method, path, body] of writes) {
        const res = await c.req(method, path, body, { origin });
        expect([origin, method, path, ...(await codeOf(res))]).toEqual([
          origin,
          method,
          path,
          403,
          "CROSS_SITE_REQUEST",
        ]);
      }
    }
    const keys = (await (await c.req("GET", "/api/console/keys")).json()) as { keys: { status: string }[] };
    expect(keys.keys.map((x) => x.status)).toEqual(["active"]);
    expect(await c.used()).toBe(0);
  });

  test("our own origin passes: the Host's without PUBLIC_URL, PUBLIC_URL's with it", async () => {
    expect((await signupFrom(srv, freshEmail(), undefined, { origin: srv.url })).status).toBe(201);
    const viaPublic = await signupFrom(pub, freshEmail(), undefined, { origin: "https://rq.example.com" });
    expect(viaPublic.status).toBe(201);
    // With PUBLIC_URL set, the address the server happens to be reached by is not our origin.
    const viaHost = await signupFrom(pub, freshEmail(), undefined, { origin: pub.url });
    expect([viaHost.status, viaHost.code]).toEqual([403, "CROSS_SITE_REQUEST"]);
  });

  test("sign-up and sign-in take JSON only: form posts are 400 invalid_request and sign no one in", async () => {
    const email = freshEmail();
    await signupFrom(srv, email);
    const form = new URLSearchParams({ email, password: PASSWORD }).toString();
    const plain = JSON.stringify({ email, password: PASSWORD });
    const multipart = new FormData();
    multipart.set("email", email);
    multipart.set("password", PASSWORD);
    for (const path of ["login", "signup"] as const) {
      const bodies: [string, string][] = [
        ["application/x-www-form-urlencoded", form],
        ["text/plain", plain],
        ["", plain],
      ];
      for (const [ct, body] of bodies) {
        const a = await authPost(srv, path, body, { "content-type": ct });
        expect([path, ct, a.status, a.code, a.cookies]).toEqual([path, ct, 400, "invalid_request", []]);
      }
      const res = await srv.fetch(`${srv.url}/api/v1/auth/${path}`, { method: "POST", body: multipart });
      expect([path, "multipart", res.status, res.headers.get("set-cookie")]).toEqual([path, "multipart", 400, null]);
    }
  });

  test("the CORS-open query endpoints still take any origin with a key", async () => {
    const c = new Client(srv);
    await c.signup();
    const { key } = await c.createKey();
    const res = await query(srv, key, { query: "q" }, { origin: "null" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
