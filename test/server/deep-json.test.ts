import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_BODY_BYTES } from "../../src/contract/query.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { type Client, keyedClient, startTestServer, type TestServer } from "../helpers/server.ts";

// A field no route reads, nested 32,000 arrays deep (64 KB, within the body limit): the scan for
// text a database cannot hold recursed per level and overflowed the stack, a 500 on every route
// that reads a JSON body. Now a coded 400 past MAX_JSON_DEPTH levels, and within them a normal answer.
const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

let s: TestServer, c: Client, key: string;
beforeAll(async () => {
  s = startTestServer({ engine: scriptedEngine(), env: { SIGNUP_PER_HOUR: "1000", PLAN_RUNS_FREE: "100" } });
  ({ c, key } = await keyedClient(s.url));
});
afterAll(() => s.stop(100));

/** Every route that reads a JSON body: its path and method, who calls it, the fields it reads, its answer to a good body. */
const ENTRIES = [
  { path: "/api/query", as: "key", fields: { query: "How do tides work?" }, ok: 200 },
  { path: "/api/query/stream", as: "key", fields: { query: "How do tides work?" }, ok: 200 },
  { path: "/api/v1/research", as: "session", fields: { query: "How do tides work?" }, ok: 200 },
  { path: "/api/v1/research/stream", as: "session", fields: { query: "How do tides work?" }, ok: 200 },
  {
    path: "/api/v1/auth/login",
    as: "nobody",
    fields: { email: "nobody@example.com", password: "not the password" },
    ok: 401,
  },
  { path: "/api/v1/auth/signup", as: "nobody", fields: { password: "correct horse battery" }, ok: 201 },
  { path: "/api/console/keys", as: "session", fields: { name: "deep" }, ok: 201 },
  { path: "/api/console/collections", as: "session", fields: { name: "deep" }, ok: 201 },
  { path: "/api/console/collections/deep", method: "PATCH", as: "session", fields: { visibility: "shared" }, ok: 200 },
] as const;

/** The entry called with its fields and `pad`, a JSON text placed as an ignored field. */
function send(e: (typeof ENTRIES)[number], pad: string, n: number) {
  const fields: Record<string, string> = { ...e.fields };
  if (e.path === "/api/v1/auth/signup") fields.email = `deep${n}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const body = `${JSON.stringify(fields).slice(0, -1)},"pad":${pad}}`;
  expect(body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (e.as === "key") headers.authorization = `Bearer ${key}`;
  if (e.as === "session") headers.cookie = c.cookie!;
  return fetch(s.url + e.path, { method: "method" in e ? e.method : "POST", headers, body });
}

describe("JSON bodies nested deep in a field no route reads", () => {
  test("nested 32,000 levels: a coded 400 on every route, never a 5xx", async () => {
    for (const e of ENTRIES) {
      const res = await send(e, deep(32_000), 0);
      const body = (await res.json()) as { errors: { code: string; message: string }[] };
      expect({ path: e.path, status: res.status, code: body.errors[0]!.code }).toEqual({
        path: e.path,
        status: 400,
        code: "invalid_request",
      });
      expect(body.errors[0]!.message).toContain("more than 64 levels deep");
    }
    // One level past the most a body may: the whole body counts, its own braces too.
    expect((await send(ENTRIES[0], deep(64), 0)).status).toBe(400);
    expect(s.logs.filter((l) => l.includes("Maximum call stack"))).toEqual([]);
  });

  test("nested 64 levels, the most a body may: each route answers as without the field", async () => {
    for (const [i, e] of ENTRIES.entries()) {
      const res = await send(e, deep(63), i + 1);
      await res.text();
      expect({ path: e.path, status: res.status }).toEqual({ path: e.path, status: e.ok });
    }
  });
});
