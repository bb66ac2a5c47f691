import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { expectEnvelope } from "../helpers/expect-envelope.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { spawnServe } from "../helpers/serve-process.ts";
import { keyedClient, query, startTestServer } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/** What a shutting-down server must answer a new call: 503, our body, Retry-After. */
async function expectShuttingDown(res: Response) {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(res.headers.get("x-request-id")).toBeTruthy();
  const body = (await res.json()) as { errors: { code: string }[] };
  expect(body.errors[0]!.code).toBe("internal_error");
}

/** What /healthz answers a probe during a drain: 503, so the balancer moves on, and a body that says why. */
async function expectDraining(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(await res.json()).toEqual({ status: "draining", database: "ok", unrecorded_runs: 0 });
}

describe("a drain loses no answer", () => {
  test("runs under way finish and reach their callers; new calls hear 503 with Retry-After", async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const eng = scriptedEngine({ gate, deltas: ["Answer ", "text ", "[S1]."], deltaMs: 20 });
    const s = startTestServer({ engine: eng, env: { DEFAULT_PLAN: "pro" } });
    const { c, key } = await keyedClient(s.url);
    const json = query(s.url, key, { query: "held json" });
    const streams = Array.from({ length: 12 }, (_, i) =>
      query(s.url, key, { query: `held stream ${i}` }, {}, "/api/query/stream").then((r) => readSse(r)),
    );
    await eng.started;
    while (s.deps.runs.inFlight < 13) await Bun.sleep(5);
    const stopped = s.stop(10_000);
    // Still listening: a new call is told to come back, on every kind of route; /healthz says why.
    await expectShuttingDown(await query(s.url, key, { query: "late" }));
    await expectDraining(await fetch(`${s.url}/healthz`));
    await expectShuttingDown(await c.req("GET", "/api/console/usage"));
    const late = await query(s.url, key, { query: "late" }, {}, "/api/query/stream");
    expect(late.status).toBe(503);
    open();
    const answer = await json;
    expect(answer.status).toBe(200);
    expectEnvelope(await answer.json(), { status: "ok", answer: "Answer text [S1]." });
    for (const st of await Promise.all(streams)) {
      const last = st.events.at(-1)!;
      expect(last.event).toBe("final");
      expect(last.data.status).toBe("ok");
    }
    await stopped;
    expect(await fetch(`${s.url}/healthz`).catch(() => "refused")).toBe("refused");
  });
});

describe("SIGTERM on `serve`", () => {
  let pages: PageServer, search: SearchFixtures, chat: ReturnType<typeof startChatServer>;
  beforeAll(() => {
    pages = startPageServer();
    search = startSearchFixtures(pages.base);
    // The writer takes its time, so the signal arrives while runs are under way.
    chat = startChatServer((b) =>
      isPlannerCall(b)
        ? { text: '{"kind":"web","language":"en","queries":["base editing"]}' }
        : { text: "Base editors avoid double-strand breaks [S1].", delayMs: 1500 },
    );
  });
  afterAll(() => {
    pages.stop();
    search.stop();
    chat.stop();
  });

  test("delivers every answer and stream final under way, refuses new calls with 503, then exits 0", async () => {
    const {
      proc: p,
      base,
      out: log,
    } = await spawnServe({
      DEFAULT_PLAN: "pro",
      SEARXNG_URL: search.urls.searxng,
      ACADEMIC_PROVIDERS: "none",
      FETCH_ALLOW_PRIVATE: "true",
      OPENAI_BASE_URL: chat.openaiBase,
    });
    const { key } = await keyedClient(base);
    const json = query(base, key, { query: "How do base editors work?" });
    const streams = Array.from({ length: 10 }, () =>
      query(base, key, { query: "How do base editors work?" }, {}, "/api/query/stream").then((r) => readSse(r)),
    );
    // Every writer call is in: all 11 runs are under way.
    await chat.untilRequests(22);
    p.kill("SIGTERM");
    await log.until('"msg":"shutting_down"');
    await expectShuttingDown(await query(base, key, { query: "late" }));
    await expectDraining(await fetch(`${base}/healthz`));
    const answer = await json;
    expect(answer.status).toBe(200);
    expectEnvelope(await answer.json(), { status: "ok" });
    for (const st of await Promise.all(streams)) expect(st.events.at(-1)?.event).toBe("final");
    expect(await p.exited).toBe(0);
    const rest = await log.rest();
    // Each run's end is logged with its outcome and whole-run latency.
    const ends = rest.split("\n").filter((l) => l.includes('"msg":"run_end"'));
    expect(ends).toHaveLength(11);
    expect(JSON.parse(ends[0]!)).toMatchObject({ status: "ok", writer: "llm", endpoint: expect.any(String) });
  });
});
