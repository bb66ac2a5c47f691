import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, query } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

let srv: InProcessServer;
beforeAll(() => {
  srv = startInProcess({ engine: scriptedEngine(), env: { PLAN_RUNS_FREE: "100" } });
});
afterAll(() => srv.stop(100));

describe("API keys in the Console", () => {
  test("create returns the full key once: rq- + 32 base64url chars; list never shows it", async () => {
    const c = new Client(srv);
    await c.signup();
    const res = await c.req("POST", "/api/console/keys", { name: "ci" });
    expect(res.status).toBe(201);
    const k = (await res.json()) as Record<string, string>;
    expect(Object.keys(k).sort()).toEqual(["created_at", "id", "key", "name", "prefix", "status"]);
    expect(k.key).toMatch(/^rq-[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(k.key!.slice(3), "base64url").length).toBe(24);
    expect(k.prefix).toBe(k.key!.slice(0, 12));
    expect(k.status).toBe("active");
    const list = (await (await c.req("GET", "/api/console/keys")).json()) as { keys: Record<string, unknown>[] };
    expect(list.keys).toHaveLength(1);
    expect(Object.keys(list.keys[0]!).sort()).toEqual([
      "created_at",
      "id",
      "last_used_at",
      "name",
      "prefix",
      "revoked_at",
      "status",
    ]);
    expect(JSON.stringify(list)).not.toContain(k.key!);
    const stored = JSON.stringify(srv.sql.query("SELECT * FROM api_keys").all());
    expect(stored).not.toContain(k.key!);
    expect(stored).toContain(new Bun.CryptoHasher("sha256").update(k.key!).digest("hex"));
  });

  test("create without a body, list newest first, name over 100 chars refused", async () => {
    const c = new Client(srv);
    await c.signup();
    const a = await c.createKey();
    const b = await c.createKey("second");
    const list = (await (await c.req("GET", "/api/console/keys")).json()) as {
      keys: { id: string; name: string | null }[];
    };
    expect(list.keys.map((k) => k.id)).toEqual([b.id, a.id]);
    expect(list.keys[1]!.name).toBeNull();
    const bare = await srv.fetch(srv.url + "/api/console/keys", { method: "POST", headers: { cookie: c.cookie! } });
    expect(bare.status).toBe(201);
    const long = await c.req("POST", "/api/console/keys", { name: "x".repeat(101) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("invalid_request");
  });

  test("revoke: takes effect on the very next call, idempotent, 404 for another account's key", async () => {
    const c = new Client(srv);
    await c.signup();
    const k = await c.createKey();
    expect((await query(srv, k.key, { query: "first" })).status).toBe(200);
    const del = await c.req("DELETE", `/api/console/keys/${k.id}`);
    expect(del.status).toBe(200);
    const rec = (await del.json()) as Record<string, string>;
    expect(rec).toEqual({ id: k.id, status: "revoked", revoked_at: expect.any(String) });
    const after = await query(srv, k.key, { query: "second" });
    expect(after.status).toBe(403);
    expect(((await after.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("key_inactive");
    const again = await c.req("DELETE", `/api/console/keys/${k.id}`);
    expect(await again.json()).toEqual(rec);
    const other = new Client(srv);
    await other.signup();
    const o = await other.req("DELETE", `/api/console/keys/${k.id}`);
    expect(o.status).toBe(404);
    expect(((await o.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("key_not_found");
    expect((await c.req("DELETE", `/api/console/keys/${crypto.randomUUID()}`)).status).toBe(404);
  });

  test("last_used_at is set by a call", async () => {
    const c = new Client(srv);
    await c.signup();
    const k = await c.createKey();
    await query(srv, k.key, { query: "q" });
    const list = (await (await c.req("GET", "/api/console/keys")).json()) as {
      keys: { last_used_at: string | null }[];
    };
    expect(list.keys[0]!.last_used_at).toEqual(expect.any(String));
  });

  test("an API key is not a credential on /api/console/*", async () => {
    const c = new Client(srv);
    await c.signup();
    const k = await c.createKey();
    for (const h of [{ authorization: `Bearer ${k.key}` }, { "x-api-key": k.key }] as Record<string, string>[]) {
      const res = await srv.fetch(srv.url + "/api/console/keys", { headers: h });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ errors: [{ code: "unauthorized", message: expect.any(String) }] });
    }
    expect((await srv.fetch(srv.url + "/api/console/usage")).status).toBe(401);
  });

  test("cross-site cookie writes are refused with 403 CROSS_SITE_REQUEST; same write same-site passes", async () => {
    const c = new Client(srv);
    await c.signup();
    const k = await c.createKey();
    const cross = await c.req("POST", "/api/console/keys", { name: "evil" }, { "sec-fetch-site": "cross-site" });
    expect(cross.status).toBe(403);
    expect(((await cross.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("CROSS_SITE_REQUEST");
    const crossDel = await c.req("DELETE", `/api/console/keys/${k.id}`, undefined, { "sec-fetch-site": "cross-site" });
    expect(crossDel.status).toBe(403);
    const list = (await (await c.req("GET", "/api/console/keys")).json()) as { keys: { status: string }[] };
    expect(list.keys).toHaveLength(1);
    expect(list.keys[0]!.status).toBe("active");
    expect((await c.req("POST", "/api/console/keys", { name: "ok" }, { "sec-fetch-site": "same-origin" })).status).toBe(
      201,
    );
    expect((await c.req("POST", "/api/console/keys", { name: "ok2" })).status).toBe(201);
    // Checked before anything else: even an unauthenticated cookie write is refused as cross-site.
    const anon = await srv.fetch(srv.url + "/api/v1/auth/logout", {
      method: "POST",
      headers: { cookie: "auth_token=x", "sec-fetch-site": "cross-site" },
    });
    expect(anon.status).toBe(403);
    const noCookie = await srv.fetch(srv.url + "/api/console/keys", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(noCookie.status).toBe(403);
    // Reads are not writes; the CORS-open query endpoints take cross-site calls with a key.
    expect((await c.req("GET", "/api/console/keys", undefined, { "sec-fetch-site": "cross-site" })).status).toBe(200);
    const q = await srv.fetch(srv.url + "/api/query", {
      method: "POST",
      headers: {
        authorization: `Bearer ${k.key}`,
        "content-type": "application/json",
        "sec-fetch-site": "cross-site",
        origin: "https://app.example",
      },
      body: JSON.stringify({ query: "q" }),
    });
    expect(q.status).toBe(200);
  });
});

describe("credentials on the query endpoints", () => {
  test("missing, wrong prefix, unknown, revoked; Bearer wins over X-Api-Key; a cookie is no credential", async () => {
    const c = new Client(srv);
    await c.signup();
    const k = await c.createKey();
    const code = async (r: Response) => [
      r.status,
      ((await r.json()) as { errors: { code: string }[] }).errors[0]?.code,
    ];
    expect(await code(await query(srv, null, { query: "q" }))).toEqual([401, "missing_api_key"]);
    expect(await code(await query(srv, "sk-" + k.key.slice(3), { query: "q" }))).toEqual([401, "invalid_api_key"]);
    expect(await code(await query(srv, "rq-" + "A".repeat(32), { query: "q" }))).toEqual([401, "invalid_api_key"]);
    expect(await code(await query(srv, null, { query: "q" }, { "x-api-key": k.key }))).toEqual([200, undefined]);
    expect(await code(await query(srv, "rq-" + "B".repeat(32), { query: "q" }, { "x-api-key": k.key }))).toEqual([
      401,
      "invalid_api_key",
    ]);
    expect(await code(await query(srv, null, { query: "q" }, { cookie: c.cookie! }))).toEqual([401, "missing_api_key"]);
  });
});
