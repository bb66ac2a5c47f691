import { describe, expect, test } from "bun:test";
import { createHandlers } from "../../../src/server/app.ts";
import { expectEnvelope } from "../../helpers/expect-envelope.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { Client, query, startTestServer, type TestServer, useKeyedServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

let srv: TestServer;
let key: string;
useKeyedServer({ engine: scriptedEngine(), env: { PLAN_RUNS_FREE: "1000" } }, (s) => {
  ({ srv, key } = s);
});

describe("POST /api/query", () => {
  test("an accepted call returns the envelope with writer and the run id header", async () => {
    const res = await query(srv.url, key, {
      query: "What is X?",
      model: "ignored",
      depth_mode: 3,
      source_mode: null,
      project_id: "p",
      preferences: {},
      extra: 1,
    });
    expect(res.status).toBe(200);
    const env = (await res.json()) as Record<string, unknown>;
    expectEnvelope(env, { status: "ok", answer: "Answer text [S1].", errors: [], writer: "extractive" });
    expect(res.headers.get("x-request-id")).toBe(env.request_id as string);
  });

  test("invalid bodies → 400 invalid_request envelope, never counted, never 500", async () => {
    const c = new Client(srv.url);
    await c.signup();
    const k = (await c.createKey()).key;
    const bodies: unknown[] = [
      "{not json",
      "",
      "[]",
      "null",
      "42",
      { q: "x" },
      { query: "" },
      { query: "   \n\t" },
      { query: 5 },
      { query: null },
      { query: ["a"] },
      { query: "x".repeat(2001) },
      { query: "😀".repeat(2001) },
      { query: "y".repeat(1024 * 1024) },
    ];
    for (const b of bodies) {
      const res = await query(srv.url, k, b);
      expect(res.status).toBe(400);
      const env = (await res.json()) as { status: string; answer: null; errors: { code: string; message: string }[] };
      expectEnvelope(env, { status: "error", answer: null, sources: [] });
      expect(env.errors[0]!.code).toBe("invalid_request");
      expect(env.errors[0]!.message.length).toBeGreaterThan(5);
    }
    // Streams refuse bad bodies the same way: plain 400 JSON.
    const s = await query(srv.url, k, { query: "" }, {}, "/api/query/stream");
    expect(s.status).toBe(400);
    expect(s.headers.get("content-type")).toContain("application/json");
    // 2000 code points (4000 UTF-16 units) is within the limit.
    expect((await query(srv.url, k, { query: "😀".repeat(2000) })).status).toBe(200);
    const usage = (await (await c.req("GET", "/api/console/usage")).json()) as { allowance: { used: number } };
    expect(usage.allowance.used).toBe(1);
  });

  test("50 concurrent calls with 3 runs left → exactly 3 accepted, 47 × 429 quota_exceeded", async () => {
    const s = startTestServer({
      engine: scriptedEngine({ delayMs: 50 }),
      env: {
        DATABASE_PATH: `/tmp/rq-quota-${crypto.randomUUID()}.db`,
      },
    });
    try {
      const c = new Client(s.url);
      await c.signup();
      const k = (await c.createKey()).key;
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          query(s.url, k, { query: `q${i}` }, {}, i % 2 ? "/api/query/stream" : "/api/query"),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((x) => x === 200)).toHaveLength(3);
      expect(statuses.filter((x) => x === 429)).toHaveLength(47);
      const refused = results.find((r) => r.status === 429)!;
      const env = (await refused.json()) as { errors: { code: string }[]; status: string };
      expect(env.status).toBe("error");
      expect(env.errors[0]!.code).toBe("quota_exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      await Promise.all(results.filter((r) => r !== refused).map((r) => r.text()));
      const usage = (await (await c.req("GET", "/api/console/usage")).json()) as { allowance: Record<string, number> };
      expect(usage.allowance).toEqual({ limit: 3, used: 3, remaining: 0 });
    } finally {
      await s.stop(2000);
    }
  });

  test("a run that fails still counts and returns 200 with status error", async () => {
    const s = startTestServer({ engine: scriptedEngine({ failWith: "search_failed" }) });
    try {
      const c = new Client(s.url);
      await c.signup();
      const k = (await c.createKey()).key;
      const res = await query(s.url, k, { query: "q" });
      expect(res.status).toBe(200);
      const env = (await res.json()) as { status: string; answer: null; errors: { code: string }[]; writer: string };
      expect(env).toMatchObject({
        status: "error",
        answer: null,
        sources: [],
        errors: [{ code: "search_failed", message: expect.any(String) }],
        writer: "extractive",
      });
      const usage = (await (await c.req("GET", "/api/console/usage")).json()) as {
        allowance: { used: number };
        totals: Record<string, number>;
      };
      expect(usage.allowance.used).toBe(1);
      expect(usage.totals).toEqual({ calls: 1, ok: 0, error: 1 });
    } finally {
      await s.stop(100);
    }
  });

  test("an unexpected engine exception becomes internal_error without leaking its text", async () => {
    const s = startTestServer({ engine: scriptedEngine({ throwRaw: true }) });
    try {
      const c = new Client(s.url);
      await c.signup();
      const env = (await (await query(s.url, (await c.createKey()).key, { query: "q" })).json()) as {
        errors: { code: string; message: string }[];
      };
      expect(env.errors).toEqual([{ code: "internal_error", message: expect.any(String) }]);
      expect(env.errors[0]!.message).not.toContain("boom");
    } finally {
      await s.stop(100);
    }
  });

  test("accepted runs, and only they, are exempt from the server's idle timeout", async () => {
    // Bun cuts a silent connection only on a 4 s tick, so a real wait would cost seconds per
    // test: the routes are driven with a server double that records what they ask of Bun.
    const s = startTestServer({ engine: scriptedEngine(), env: { DEFAULT_PLAN: "pro" } });
    try {
      const c = new Client(s.url);
      await c.signup();
      const k = (await c.createKey()).key;
      const { fetch } = createHandlers(s.deps);
      const lifted: string[] = [];
      const server = {
        timeout: (r: Request, sec: number) => {
          if (sec === 0) lifted.push(new URL(r.url).pathname);
        },
        requestIP: () => ({ address: "127.0.0.1" }),
      };
      const post = (path: string, headers: Record<string, string>) =>
        fetch(
          new Request(s.url + path, {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify({ query: "q" }),
          }),
          server,
        );
      for (const path of ["/api/query", "/api/query/stream"])
        await (await post(path, { authorization: `Bearer ${k}` })).text();
      for (const path of ["/api/v1/research", "/api/v1/research/stream"])
        await (await post(path, { cookie: c.cookie! })).text();
      expect(lifted).toEqual(["/api/query", "/api/query/stream", "/api/v1/research", "/api/v1/research/stream"]);
      await (await fetch(new Request(s.url + "/api/console/usage", { headers: { cookie: c.cookie! } }), server)).text();
      expect(lifted).toHaveLength(4); // the Console keeps the idle timeout
      // Refusals keep it too: 1,100 keyless connections held open made /healthz time out.
      for (const path of ["/api/query", "/api/query/stream"]) {
        await (await post(path, {})).text();
        await (await post(path, { authorization: "Bearer rq-nope" })).text();
      }
      await (
        await fetch(
          new Request(`${s.url}/api/query`, { method: "POST", headers: { authorization: `Bearer ${k}` }, body: "{" }),
          server,
        )
      ).text();
      await (await post("/api/v1/research", {})).text();
      expect(lifted).toHaveLength(4);
    } finally {
      await s.stop(100);
    }
  });

  test("RUN_TIMEOUT_MS ends a stuck run with run_timeout and aborts the engine", async () => {
    const eng = scriptedEngine({ hang: true });
    const s = startTestServer({ engine: eng, env: { RUN_TIMEOUT_MS: "200" } });
    try {
      const c = new Client(s.url);
      await c.signup();
      const env = (await (await query(s.url, (await c.createKey()).key, { query: "q" })).json()) as {
        status: string;
        errors: { code: string }[];
      };
      expect(env.status).toBe("error");
      expect(env.errors[0]!.code).toBe("run_timeout");
      expect(eng.aborted).toBe(1);
    } finally {
      await s.stop(100);
    }
  });

  test("an auth refusal is an envelope with zero token usage", async () => {
    const res = await query(srv.url, null, { query: "q" });
    const env = (await res.json()) as any;
    expectEnvelope(env, { status: "error", answer: null, sources: [], usage: { tokens_in: 0, tokens_out: 0 } });
    expect(env.errors).toHaveLength(1);
    expect(env.errors[0].code).toBe("missing_api_key");
    expect(env.writer).toBeUndefined();
  });
});

describe("CORS", () => {
  test("query endpoints: any origin, no credentials; preflight allows the key, body and safe-retry headers; X-Request-Id and Retry-After exposed", async () => {
    const pre = await fetch(srv.url + "/api/query", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const allowed = pre.headers.get("access-control-allow-headers")!.toLowerCase();
    for (const h of ["authorization", "x-api-key", "content-type", "idempotency-key", "last-event-id"])
      expect(allowed).toContain(h);
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    const res = await query(srv.url, key, { query: "q" }, { origin: "https://app.example" }, "/api/query/stream");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const exposed = res.headers.get("access-control-expose-headers")!.toLowerCase();
    for (const h of ["x-request-id", "retry-after", "idempotent-replayed"]) expect(exposed).toContain(h);
    await res.text();
  });

  test("other methods on the query endpoints: 404 not_found naming POST, CORS headers kept", async () => {
    for (const p of ["/api/query", "/api/query/stream"]) {
      const res = await fetch(srv.url + p, { headers: { origin: "https://app.example" } });
      expect(res.status).toBe(404);
      expect(res.headers.get("allow")).toBe("POST, OPTIONS");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(((await res.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("not_found");
    }
  });

  test("no CORS headers on the console, /api/v1 or health", async () => {
    for (const [m, p] of [
      ["GET", "/api/console/keys"],
      ["OPTIONS", "/api/console/keys"],
      ["POST", "/api/v1/auth/login"],
      ["GET", "/healthz"],
      ["OPTIONS", "/api/v1/me"],
    ] as const) {
      const res = await fetch(srv.url + p, {
        method: m,
        headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("access-control-allow-headers")).toBeNull();
    }
  });
});
