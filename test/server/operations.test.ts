import { describe, expect, test } from "bun:test";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { query, type TestServer, useKeyedServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

let srv: TestServer;
let key: string;
useKeyedServer(scriptedEngine(), { PLAN_RUNS_FREE: "1000" }, (s) => {
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
    expect(await (await fetch(srv.url + "/healthz")).json()).toEqual({ status: "ok" });
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
