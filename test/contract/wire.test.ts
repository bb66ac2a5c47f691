import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { AppError, RUN_FAILURE_CODES } from "../../src/contract/errors.ts";
import { StreamEventSchema, StreamMessageSchema } from "../../src/contract/events.ts";
import type { Engine } from "../../src/research/types.ts";
import { apiDocument } from "../../src/server/api-document.ts";
import { conforms } from "../helpers/documented-answer.ts";
import { Client, query, startTestServer, type TestServer } from "../helpers/server.ts";
import { readSseMessages } from "../helpers/sse-messages.ts";
import { undeclaredFields } from "../helpers/undeclared-fields.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/**
 * The contract against the running service: every JSON answer must match the schema the
 * OpenAPI document names for its path, method and status, and every stream event must
 * match StreamMessageSchema (its id too). So the schemas describe what is really sent: every field
 * they require is there, and every field sent is one they name.
 */

const source = {
  id: "S1",
  title: "Base editing",
  url: "https://example.org/base-editing",
  type: "web" as const,
  provider: "searxng",
  snippet: "…",
  read: "page" as const,
};
const engine: Engine = {
  async run(q, ctx) {
    for (const stage of ["planning", "searching", "reading", "writing"] as const)
      ctx.emit({ type: "progress", stage, message: `${stage}…`, detail: 1 });
    if (q.includes("fail")) throw new AppError("no_sources", "nothing usable was found");
    ctx.emit({ type: "source", source });
    ctx.emit({ type: "answer", delta: "Base editors " });
    ctx.emit({ type: "answer", delta: "change one letter [S1]." });
    return {
      answer: "Base editors change one letter [S1].",
      sources: [source],
      writer: "extractive",
      tokens_in: 12,
      tokens_out: 7,
    };
  },
};

const doc = apiDocument("http://127.0.0.1");
const RUNS = 6;
let srv: TestServer;
let user: Client;

beforeAll(() => {
  srv = startTestServer({ engine, env: { PLAN_RUNS_FREE: String(RUNS) } });
  user = new Client(srv.url);
});
afterAll(() => srv?.stop(100));

describe("the running service answers what the contract says", () => {
  test("health, providers, accounts", async () => {
    await conforms(await fetch(`${srv.url}/healthz`), "/healthz", "get", 200);
    await conforms(await fetch(`${srv.url}/api/v1/auth/providers`), "/api/v1/auth/providers", "get", 200);
    await conforms(await user.req("GET", "/api/v1/me"), "/api/v1/me", "get", 401);
    const email = `c${crypto.randomUUID().slice(0, 8)}@example.com`;
    await conforms(
      await user.req("POST", "/api/v1/auth/signup", { email, password: "short" }),
      "/api/v1/auth/signup",
      "post",
      400,
    );
    await conforms(
      await user.req("POST", "/api/v1/auth/signup", { email, password: "correct horse battery" }),
      "/api/v1/auth/signup",
      "post",
      201,
    );
    await conforms(
      await new Client(srv.url).req("POST", "/api/v1/auth/signup", { email, password: "correct horse battery" }),
      "/api/v1/auth/signup",
      "post",
      409,
    );
    await conforms(
      await new Client(srv.url).req("POST", "/api/v1/auth/login", { email, password: "wrong password!" }),
      "/api/v1/auth/login",
      "post",
      401,
    );
    await conforms(
      await user.req("POST", "/api/v1/auth/login", { email, password: "correct horse battery" }),
      "/api/v1/auth/login",
      "post",
      200,
    );
    await conforms(await user.req("GET", "/api/v1/me"), "/api/v1/me", "get", 200);
    await conforms(
      await user.req("POST", "/api/console/keys", {}, { "sec-fetch-site": "cross-site" }),
      "/api/console/keys",
      "post",
      403,
    );
  });

  test("keys, query, stream, usage, timeline, revoke", async () => {
    const created = await conforms(
      await user.req("POST", "/api/console/keys", { name: "contract" }),
      "/api/console/keys",
      "post",
      201,
    );
    await conforms(await user.req("POST", "/api/console/keys", {}), "/api/console/keys", "post", 201);
    await conforms(
      await user.req("POST", "/api/console/keys", { name: "x".repeat(101) }),
      "/api/console/keys",
      "post",
      400,
    );
    await conforms(await user.req("GET", "/api/console/keys"), "/api/console/keys", "get", 200);

    const res = await query(srv.url, created.key, { query: "What is base editing?" });
    const env = await conforms(res, "/api/query", "post", 200);
    expect([env.status, res.headers.get("x-request-id")]).toEqual(["ok", env.request_id]);
    const failed = await conforms(
      await query(srv.url, created.key, { query: "please fail" }),
      "/api/query",
      "post",
      200,
    );
    expect(failed.status).toBe("error");
    expect(RUN_FAILURE_CODES.has(failed.errors[0].code)).toBe(true);
    await conforms(await query(srv.url, null, { query: "x" }), "/api/query", "post", 401);
    await conforms(await query(srv.url, created.key, { query: "" }), "/api/query", "post", 400);
    await conforms(
      await query(srv.url, created.key, { query: "" }, {}, "/api/query/stream"),
      "/api/query/stream",
      "post",
      400,
    );
    // The safe-retry answers (README "Safe retries"): a replayed run, a reused key, an unknown run.
    const first = await conforms(
      await query(srv.url, created.key, { query: "What is base editing?" }, { "idempotency-key": "wire" }),
      "/api/query",
      "post",
      200,
    );
    const replayed = await query(
      srv.url,
      created.key,
      { query: "What is base editing?" },
      { "idempotency-key": "wire" },
    );
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(await conforms(replayed, "/api/query", "post", 200)).toEqual(first);
    await conforms(
      await query(srv.url, created.key, { query: "another question" }, { "idempotency-key": "wire" }),
      "/api/query",
      "post",
      422,
    );
    await conforms(
      await query(srv.url, created.key, null, { "last-event-id": `${crypto.randomUUID()}:1` }, "/api/query/stream"),
      "/api/query/stream",
      "post",
      404,
    );

    for (const [key, q, retry] of [
      [created.key, "What is base editing?", 1000],
      [null, "no key", 3_600_000],
    ] as const) {
      const s = await query(srv.url, key, { query: q }, {}, "/api/query/stream");
      expect(s.status).toBe(200);
      const { text, messages } = await readSseMessages(s);
      expect(text).toStartWith(`retry: ${retry}\nid: `);
      const last = messages.at(-1)!;
      expect([last.event, last.id]).toEqual(["final", `${s.headers.get("x-request-id")}:${messages.length}`]);
      for (const [i, m] of messages.entries()) {
        expect(m.id).toBe(`${last.data.request_id}:${i + 1}`);
        const errors = [...Value.Errors(StreamMessageSchema, m)].map((x) => `${x.path}: ${x.message}`);
        const extra = undeclaredFields(StreamEventSchema, { event: m.event, data: m.data });
        expect([m.event, errors, extra]).toEqual([m.event, [], []]);
      }
    }
    const research = await conforms(
      await user.req("POST", "/api/v1/research", { query: "via the app" }),
      "/api/v1/research",
      "post",
      200,
    );
    await conforms(
      await new Client(srv.url).req("POST", "/api/v1/research", { query: "x" }),
      "/api/v1/research",
      "post",
      401,
    );

    const usage = await conforms(await user.req("GET", "/api/console/usage"), "/api/console/usage", "get", 200);
    expect(usage.recent.length).toBeGreaterThanOrEqual(3);
    for (const id of [env.request_id, failed.request_id, research.request_id]) {
      const run = await conforms(
        await user.req("GET", `/api/console/runs/${id}`),
        "/api/console/runs/{request_id}",
        "get",
        200,
      );
      expect(run.request_id).toBe(id);
    }
    await conforms(
      await user.req("GET", `/api/console/runs/${crypto.randomUUID()}`),
      "/api/console/runs/{request_id}",
      "get",
      404,
    );

    await conforms(
      await user.req("DELETE", `/api/console/keys/${created.id}`),
      "/api/console/keys/{key_id}",
      "delete",
      200,
    );
    await conforms(
      await user.req("DELETE", `/api/console/keys/${created.id}`),
      "/api/console/keys/{key_id}",
      "delete",
      200,
    );
    await conforms(
      await user.req("DELETE", `/api/console/keys/${crypto.randomUUID()}`),
      "/api/console/keys/{key_id}",
      "delete",
      404,
    );
    await conforms(await query(srv.url, created.key, { query: "x" }), "/api/query", "post", 403);
  });

  test("quota_exceeded: the envelope with Retry-After", async () => {
    const c = new Client(srv.url);
    await c.signup();
    const { key } = await c.createKey();
    for (let i = 0; i < RUNS; i++) await query(srv.url, key, { query: `run ${i}` }).then((r) => r.arrayBuffer());
    const res = await query(srv.url, key, { query: "one too many" });
    const env = await conforms(res, "/api/query", "post", 429);
    expect(env.errors[0].code).toBe("quota_exceeded");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const out = await c.req("POST", "/api/v1/auth/logout");
    expect([out.status, doc.paths["/api/v1/auth/logout"]!.post!.responses["204"] !== undefined]).toEqual([204, true]);
  });
});
