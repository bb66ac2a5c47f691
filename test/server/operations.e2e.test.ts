import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { keyedClient, query, startTestServer, type TestServer, useKeyedServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

let srv: TestServer;
let key: string;
useKeyedServer({ engine: scriptedEngine(), env: { PLAN_RUNS_FREE: "1000" } }, (s) => {
  ({ srv, key } = s);
});

describe("operations endpoints", () => {
  test("/metrics counts requests by route and status and runs by status", async () => {
    await (await query(srv.url, key, { query: "metrics" })).text();
    const text = await (await fetch(srv.url + "/metrics")).text();
    expect(text).toMatch(/rq_http_requests_total\{route="\/api\/query",status="200"\} \d+/);
    expect(text).toMatch(/rq_runs_total\{code="none",status="ok"\} \d+/);
    expect(text).toContain('rq_run_duration_seconds_bucket{le="+Inf"}');
    expect(text).toMatch(/rq_runs_in_flight 0/);
  });

  test("/healthz answers ok and /openapi.json lists every contract path", async () => {
    expect(await (await fetch(srv.url + "/healthz")).json()).toEqual({
      status: "ok",
      database: "ok",
      unrecorded_runs: 0,
    });
    const doc = (await (await fetch(srv.url + "/openapi.json")).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toStartWith("3.");
    for (const p of [
      "/api/query",
      "/api/query/stream",
      "/api/console/keys",
      "/api/console/keys/{key_id}",
      "/api/console/usage",
      "/api/console/runs/{request_id}",
      "/api/v1/auth/signup",
      "/api/v1/auth/login",
      "/api/v1/auth/logout",
      "/api/v1/me",
      "/api/v1/auth/oidc/start",
      "/api/v1/auth/oidc/callback",
      "/api/v1/research",
      "/api/v1/research/stream",
    ]) {
      expect(doc.paths[p]).toBeDefined();
    }
    const html = await (await fetch(srv.url + "/docs")).text();
    expect(html).toContain("POST /api/query/stream");
    expect(html).not.toMatch(/<script|https?:\/\/cdn/);
  });
});

describe("operations under real use", () => {
  test("metrics label requests by route pattern: 2,000 probed paths add no label", async () => {
    const size = async () => (await (await fetch(`${srv.url}/metrics`)).text()).length;
    await fetch(`${srv.url}/api/console/keys/k1`, { method: "DELETE" });
    const before = await size();
    for (let i = 0; i < 2000; i += 100)
      await Promise.all(
        Array.from({ length: 100 }, (_, j) => fetch(`${srv.url}/api/probe-${i + j}`).then((r) => r.text())),
      );
    const text = await (await fetch(`${srv.url}/metrics`)).text();
    expect(text).not.toContain("probe-");
    expect(text).toMatch(/rq_http_requests_total\{route="other",status="404"\} 2000/);
    expect(text).toContain('route="/api/console/keys/{key_id}"');
    expect(text.length - before).toBeLessThan(200);
  });

  test("every answer carries X-Request-Id and the security headers; pages forbid framing", async () => {
    const answers = [
      await fetch(`${srv.url}/healthz`),
      await fetch(`${srv.url}/api/v1/me`),
      await fetch(`${srv.url}/nowhere`),
      await query(srv.url, null, { query: "x" }),
      await fetch(`${srv.url}/`),
      await fetch(`${srv.url}/keys`),
    ];
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options"), res.url).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), res.url).toBe("no-referrer");
      expect(res.headers.get("x-frame-options"), res.url).toBe("DENY");
    }
    for (const res of answers) expect(res.headers.get("x-request-id"), res.url).toMatch(/^[0-9a-f-]{36}$/);
    for (const res of answers.slice(4)) {
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(await res.text()).toContain("<script");
    }
  });

  test("each run's end is logged with its outcome, code, whole-run latency and writer", async () => {
    // A run failing llm_failed was logged only as an HTTP 200 whose latency was the time to headers.
    const s = startTestServer({ engine: scriptedEngine({ failWith: "llm_failed", delayMs: 50 }) });
    try {
      const { key: k } = await keyedClient(s.url);
      const res = await query(s.url, k, { query: "log me" }, {}, "/api/query/stream");
      await res.text();
      await s.deps.runs.idle();
      const end = s.logs.map((l) => JSON.parse(l)).find((l) => l.msg === "run_end");
      expect(end).toMatchObject({
        request_id: res.headers.get("x-request-id"),
        status: "error",
        code: "llm_failed",
        writer: "extractive",
        endpoint: "/api/query/stream",
        origin: "api",
      });
      expect(end.latency_ms).toBeGreaterThanOrEqual(50);
    } finally {
      await s.stop(100);
    }
  });
});

describe("starting where it cannot", () => {
  const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
  const serve = async (env: Record<string, string>) => {
    const p = Bun.spawn(["bun", MAIN, "serve"], {
      cwd: mkdtempSync(join(tmpdir(), "rq-start-")),
      env: { PATH: process.env.PATH!, ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    return { err, code };
  };

  test("a taken port stops the start naming PORT, instead of sharing the port", async () => {
    const { err, code } = await serve({ PORT: String(srv.port), DATABASE_PATH: ":memory:" });
    expect(code).toBe(1);
    expect(err).toContain(`invalid PORT=${srv.port}: the port is taken`);
    // The running server still answers every call itself.
    for (let i = 0; i < 20; i++) expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
  });

  test("a database that cannot be opened stops the start naming DATABASE_PATH and the path", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-db-"));
    writeFileSync(join(dir, "file"), "");
    const path = join(dir, "file", "rq.db");
    const { err, code } = await serve({ PORT: "0", DATABASE_PATH: path });
    expect(code).toBe(1);
    expect(err).toContain(`invalid DATABASE_PATH="${path}"`);
  });
});
