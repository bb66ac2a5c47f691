import { describe, expect, test } from "bun:test";
import { expectEnvelope } from "../../helpers/expect-envelope.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { Client, keyedClient, query, startTestServer, type TestServer, useKeyedServer } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

let srv: TestServer;
let key: string;
useKeyedServer({ engine: scriptedEngine(), env: { PLAN_RUNS_FREE: "1000" } }, (s) => {
  ({ srv, key } = s);
});

describe("POST /api/query/stream", () => {
  test("events in order, first event at once, ends with final carrying the envelope", async () => {
    const res = await query(srv.url, key, { query: "stream me" }, {}, "/api/query/stream");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const { events } = await readSse(res);
    expect(events[0]!.event).toBe("progress");
    expect(events.at(-1)!.event).toBe("final");
    expect(events.filter((e) => e.event === "final")).toHaveLength(1);
    const stages = events.filter((e) => e.event === "progress").map((e) => e.data.stage);
    for (const st of ["planning", "searching", "reading", "writing"]) expect(stages).toContain(st);
    expect(answerOf(events)).toBe("Answer text [S1].");
    expect(events.find((e) => e.event === "source")!.data).toMatchObject({ id: "S1", url: "https://example.org/a" });
    expectEnvelope(events.at(-1)!.data, { status: "ok", answer: "Answer text [S1]." });
  });

  test("key failures arrive as error then final on HTTP 200", async () => {
    const c = new Client(srv.url);
    await c.signup();
    const k = await c.createKey();
    await c.req("DELETE", `/api/console/keys/${k.id}`);
    for (const [kk, code] of [
      [null, "missing_api_key"],
      ["nope", "invalid_api_key"],
      [k.key, "key_inactive"],
    ] as const) {
      const res = await query(srv.url, kk, { query: "q" }, {}, "/api/query/stream");
      expect(res.status).toBe(200);
      const { events } = await readSse(res);
      expect(events.map((e) => e.event)).toEqual(["error", "final"]);
      expect(events[0]!.data.code).toBe(code);
      expect(events[1]!.data).toMatchObject({ status: "error", answer: null, sources: [], errors: [{ code }] });
    }
  });

  test("a failing run sends error then final; quota refusal on the stream is plain 429 JSON", async () => {
    const s = startTestServer({ engine: scriptedEngine({ failWith: "no_sources" }), env: { PLAN_RUNS_FREE: "1" } });
    try {
      const c = new Client(s.url);
      await c.signup();
      const k = (await c.createKey()).key;
      const { events } = await readSse(await query(s.url, k, { query: "q" }, {}, "/api/query/stream"));
      expect(events.slice(-2).map((e) => e.event)).toEqual(["error", "final"]);
      expect(events.at(-1)!.data.errors[0].code).toBe("no_sources");
      const refused = await query(s.url, k, { query: "q" }, {}, "/api/query/stream");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toContain("application/json");
      expect(((await refused.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("quota_exceeded");
    } finally {
      await s.stop(100);
    }
  });

  test("keep-alive comments while the run is quiet", async () => {
    // The run stays quiet until the client has heard two keep-alives (an event, not a count of
    // timer ticks within a fixed delay, which a stalled loop would miss).
    const heard = Promise.withResolvers<void>();
    const s = startTestServer({ engine: scriptedEngine({ gate: heard.promise }), keepAliveMs: 100 });
    try {
      const c = new Client(s.url);
      await c.signup();
      let keepAlives = 0;
      const { comments, events } = await readSse(
        await query(s.url, (await c.createKey()).key, { query: "q" }, {}, "/api/query/stream"),
        undefined,
        (comment) => {
          if (comment === "keep-alive" && ++keepAlives === 2) heard.resolve();
        },
      );
      expect(comments.filter((x) => x === "keep-alive").length).toBeGreaterThanOrEqual(2);
      expect(events.at(-1)!.event).toBe("final");
    } finally {
      await s.stop(100);
    }
  });

  test("a run whose stream was closed at the first event completes; its timeline holds the answer", async () => {
    const eng = scriptedEngine({ delayMs: 200 });
    const s = startTestServer({ engine: eng });
    try {
      const { c, key } = await keyedClient(s.url);
      const res = await query(s.url, key, { query: "q" }, {}, "/api/query/stream");
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
      await eng.started;
      await s.deps.runs.idle();
      expect(await c.used()).toBe(1);
      const usage = (await (await c.req("GET", "/api/console/usage")).json()) as { recent: { request_id: string }[] };
      const run = (await (await c.req("GET", `/api/console/runs/${usage.recent[0]!.request_id}`)).json()) as {
        status: string;
        answer: string;
        events: { type: string; text?: string; seq: number }[];
      };
      expect(run.status).toBe("ok");
      expect(run.answer).toBe("Answer text [S1].");
      expect(run.events.find((e) => e.type === "answer")!.text).toBe("Answer text [S1].");
      expect(run.events.map((e) => e.type).at(-1)).toBe("final");
    } finally {
      await s.stop(100);
    }
  });
});
