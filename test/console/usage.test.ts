import { describe, expect, test } from "bun:test";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, query, startTestServer, useKeyedServer } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

let srv: InProcessServer;
let key: string;
useKeyedServer(
  { engine: scriptedEngine(), env: { PLAN_RUNS_FREE: "1000" } },
  (s) => {
    ({ srv, key } = s);
  },
  startInProcess,
);

describe("usage and run timelines", () => {
  test("usage lists accepted calls only; the timeline has the run's events from acceptance", async () => {
    const c = new Client(srv);
    await c.signup();
    const k = await c.createKey();
    const env = (await (await query(srv, k.key, { query: "timeline please" })).json()) as { request_id: string };
    await query(srv, k.key, { query: "" });
    await (await query(srv, k.key, { query: "via stream" }, {}, "/api/query/stream")).text();
    const usage = (await (await c.req("GET", "/api/console/usage")).json()) as any;
    expect(usage.plan).toBe("free");
    expect(usage.totals).toEqual({ calls: 2, ok: 2, error: 0 });
    expect(usage.period.start).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.per_day.at(-1)).toEqual({ date: today, calls: 2, ok: 2, error: 0 });
    expect(usage.per_day[0].date.slice(8)).toBe("01");
    expect(usage.recent).toHaveLength(2);
    expect(usage.recent[1]).toEqual({
      request_id: env.request_id,
      created_at: expect.any(String),
      status: "ok",
      origin: "api",
      endpoint: "/api/query",
      key_prefix: k.prefix,
      latency_ms: expect.any(Number),
      query: "timeline please",
    });
    const run = (await (await c.req("GET", `/api/console/runs/${env.request_id}`)).json()) as any;
    expect(run).toMatchObject({
      request_id: env.request_id,
      status: "ok",
      query: "timeline please",
      origin: "api",
      created_at: expect.any(String),
      finished_at: expect.any(String),
      latency_ms: expect.any(Number),
      sources: [{ id: "S1" }],
      errors: [],
    });
    const types = run.events.map((e: any) => e.type);
    expect(types[0]).toBe("accepted");
    expect(types.at(-1)).toBe("final");
    expect(types).toContain("progress");
    expect(types).toContain("source");
    for (const e of run.events) expect(typeof e.at_ms).toBe("number");
    const other = new Client(srv);
    await other.signup();
    const nf = await other.req("GET", `/api/console/runs/${env.request_id}`);
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as any).errors[0].code).toBe("run_not_found");
  });

  test("the web client's runs share the allowance and are recorded with origin app", async () => {
    const s = startTestServer({ engine: scriptedEngine(), env: { PLAN_RUNS_FREE: "2" } });
    try {
      const c = new Client(s.url);
      await c.signup();
      const k = (await c.createKey()).key;
      expect((await c.req("POST", "/api/v1/research", { query: "from the app" })).status).toBe(200);
      const { events } = await readSse(await c.req("POST", "/api/v1/research/stream", { query: "stream from app" }));
      expect(events.at(-1)!.event).toBe("final");
      const refused = await query(s.url, k, { query: "api" });
      expect(refused.status).toBe(429);
      expect((await new Client(s.url).req("POST", "/api/v1/research", { query: "anon" })).status).toBe(401);
      const usage = (await (await c.req("GET", "/api/console/usage")).json()) as any;
      expect(usage.recent.map((r: any) => r.origin)).toEqual(["app", "app"]);
    } finally {
      await s.stop(100);
    }
  });

  test("runs left running by a crash become interrupted at the next start", async () => {
    const path = `/tmp/rq-crash-${crypto.randomUUID()}.db`;
    const hung = scriptedEngine({ hang: true });
    const a = startTestServer({ engine: hung, env: { DATABASE_PATH: path } });
    const c = new Client(a.url);
    await c.signup();
    const k = (await c.createKey()).key;
    void query(a.url, k, { query: "q" }).catch(() => {});
    await hung.started; // accepted and recorded as running
    // Simulate a crash: the row stays "running", no graceful finish, and A's lease has expired
    // (a live instance's runs are never marked: test/runs/instances/instance-lease.e2e.test.ts).
    a.sql.run("UPDATE instances SET expires_at = '2000-01-01T00:00:00.000Z'");
    a.sql.exec("PRAGMA wal_checkpoint(FULL)");
    const b = startTestServer({ engine: scriptedEngine(), env: { DATABASE_PATH: path, PORT: "0" } });
    try {
      const row = b.sql.query("SELECT status, errors FROM runs").get() as { status: string; errors: string };
      expect(row.status).toBe("error");
      expect(JSON.parse(row.errors)[0].code).toBe("interrupted");
    } finally {
      await b.stop(100);
      await a.stop(100);
    }
  });

  test("no API key appears in any log line; no query text at info level", () => {
    const all = srv.logs.join("\n");
    expect(all).not.toContain(key);
    expect(all).not.toContain("timeline please");
  });
});
