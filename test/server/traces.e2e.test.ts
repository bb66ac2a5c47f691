import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { type ChatServer, isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../helpers/otlp-receiver.ts";
import { type ServeProcess, spawnServe } from "../helpers/serve-process.ts";
import { Client, query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { closedPort } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/**
 * README "Traces": `serve` as a process exporting to a real OTLP/HTTP receiver (the spans decoded
 * with the official definitions, test/helpers/otlp-receiver.ts). One JSON and one streamed run
 * each make one trace: the server span, `research.run` under it, the stages and calls under
 * that, every span with the request id, the model spans' tokens the envelope's usage, and no
 * secret or question or answer anywhere. A collector down or hung changes no run.
 */

const QUESTION = "What is base editing in a zebrafish genome?";
const ANSWER = "Base editors change one DNA letter without cutting both strands [S1].";
const PASSWORD = "traces password 42";
let pages: PageServer, search: SearchFixtures, chat: ChatServer;

beforeAll(() => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { text: '{"kind":"general","language":"en","queries":["base editing zebrafish"]}' }
      : { text: ANSWER },
  );
});
afterAll(() => {
  pages.stop();
  search.stop();
  chat.stop();
});

const env = (otel: Record<string, string>) => ({
  SEARXNG_URL: search.urls.searxng,
  ACADEMIC_PROVIDERS: "none",
  FETCH_ALLOW_PRIVATE: "true",
  OPENAI_BASE_URL: chat.openaiBase,
  ...otel,
});

/** A server, an account with its key, and its session cookie. */
async function keyed(s: ServeProcess) {
  const c = new Client(s.base);
  await c.signup(undefined, PASSWORD);
  return { c, key: (await c.createKey()).key };
}

type Envelope = {
  request_id: string;
  status: string;
  answer: string;
  usage: { tokens_in: number; tokens_out: number };
};

const byId = (spans: ReceivedSpan[], id: string) => spans.find((s) => s.spanId === id);
/** The spans of the run `requestId`, once its `research.run` and its server span have arrived. */
async function runTrace(r: OtlpReceiver, requestId: string) {
  const of = (spans: ReceivedSpan[]) => {
    const run = spans.find((s) => s.name === "research.run" && s.attributes["research.request_id"] === requestId);
    return run && spans.filter((s) => s.traceId === run.traceId);
  };
  await r.until((spans) => {
    const t = of(spans);
    // Its children end before it, so they are exported with it or before.
    return !!t && t.some((s) => s.kind === 2);
  });
  const trace = of(r.spans)!;
  return { trace, run: trace.find((s) => s.name === "research.run")! };
}

/** Every text a span carries: names, attribute values, events and status. */
const everyText = (spans: ReceivedSpan[]) => JSON.stringify(spans);

function expectRunTrace(trace: ReceivedSpan[], run: ReceivedSpan, env: Envelope, key: string, cookie: string) {
  const server = trace.find((s) => s.kind === 2)!;
  expect(server.attributes).toMatchObject({
    "http.request.method": "POST",
    "http.route": expect.stringMatching(/^\/api\/query/),
    "http.response.status_code": 200,
    "server.address": "127.0.0.1",
  });
  expect(run.parentSpanId).toBe(server.spanId);
  const names = trace.map((s) => s.name);
  for (const n of [
    "research.plan",
    "research.search",
    "research.read",
    "research.rank",
    "research.write",
    "research.verify",
  ]) {
    expect(names).toContain(n);
    expect(byId(trace, trace.find((s) => s.name === n)!.parentSpanId)?.name).toBe("research.run");
  }
  // A research.search span per provider call, each naming its provider.
  for (const s of trace.filter((s) => s.name === "research.search"))
    expect(s.attributes["research.provider"]).toBe("searxng");
  const page = trace.find((s) => s.name === "research.read" && s.attributes["research.read.used"] === "page")!;
  expect(page.attributes).toMatchObject({ "server.address": "127.0.0.1", "http.response.status_code": 200 });
  expect(page.attributes["research.read.bytes"]).toBeGreaterThan(0);
  expect(typeof page.attributes["research.read.parse_ms"]).toBe("number");
  // Every span of the run carries its request id.
  for (const s of trace) expect(s.attributes["research.request_id"]).toBe(env.request_id);
  // The model's spans (planner and writer) add up to the envelope's usage.
  const llm = trace.filter((s) => s.attributes["gen_ai.request.model"] !== undefined);
  expect(llm.map((s) => s.name).sort()).toEqual(["research.plan", "research.write"]);
  const sum = (k: string) => llm.reduce((n, s) => n + Number(s.attributes[k]), 0);
  expect(sum("gen_ai.usage.input_tokens")).toBe(env.usage.tokens_in);
  expect(sum("gen_ai.usage.output_tokens")).toBe(env.usage.tokens_out);
  expect(trace.find((s) => s.name === "research.write")!.attributes["gen_ai.response.finish_reasons"]).toEqual([
    "stop",
  ]);
  // Nothing secret or private: not the question, the answer, the key, the password, the cookie.
  const all = everyText(trace);
  for (const secret of [QUESTION, "zebrafish", ANSWER, env.answer, key, PASSWORD, cookie.split("=")[1]!])
    expect(all).not.toContain(secret);
}

describe("traces over OTLP/HTTP protobuf", () => {
  let s: ServeProcess, r: OtlpReceiver;
  beforeAll(async () => {
    r = startOtlpReceiver();
    s = await spawnServe(env({ OTEL_EXPORTER_OTLP_ENDPOINT: r.url, OTEL_SERVICE_NAME: "rq-under-test" }));
  });
  afterAll(() => {
    s.proc.kill();
    r.stop();
    rmSync(s.dir, { recursive: true, force: true });
  });

  test("a JSON run under an incoming traceparent and a streamed run: one trace each, every span in place", async () => {
    const { c, key } = await keyed(s);
    const parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentSpan = "00f067aa0ba902b7";
    const res = await query(s.base, key, { query: QUESTION }, { traceparent: `00-${parentTrace}-${parentSpan}-01` });
    const json = (await res.json()) as Envelope;
    expect(json.status).toBe("ok");
    const a = await runTrace(r, json.request_id);
    expect(a.run.traceId).toBe(parentTrace);
    expect(a.trace.find((x) => x.kind === 2)!.parentSpanId).toBe(parentSpan);
    expectRunTrace(a.trace, a.run, json, key, c.cookie!);
    expect(a.run.service).toBe("rq-under-test");

    const { events } = await readSse(await query(s.base, key, { query: QUESTION }, {}, "/api/query/stream"));
    const final = events.at(-1)!.data as unknown as Envelope;
    expect(final.status).toBe("ok");
    const b = await runTrace(r, final.request_id);
    expect(b.run.traceId).not.toBe(parentTrace);
    expectRunTrace(b.trace, b.run, final, key, c.cookie!);
    expect(r.contentTypes.every((t) => t.startsWith("application/x-protobuf"))).toBe(true);

    // The Console's timeline of each run names its trace.
    for (const [env_, t] of [
      [json, a],
      [final, b],
    ] as const) {
      const tl = (await (await c.req("GET", `/api/console/runs/${env_.request_id}`)).json()) as { trace_id?: string };
      expect(tl.trace_id).toBe(t.run.traceId);
    }
    // Nothing was dropped on the way.
    expect(await (await fetch(`${s.base}/metrics`)).text()).not.toMatch(/rq_trace_spans_dropped_total\{[^}]*\} [1-9]/);
  });
});

describe("retries, fallbacks and failures in the trace", () => {
  test("a planner answering no plan is a fallback event, a writer's 503 a retry event; a writer failing for good is llm_failed on its span and the run's", async () => {
    let writerCalls = 0;
    const flaky = startChatServer((b) => {
      if (isPlannerCall(b)) return { text: "no plan here" };
      writerCalls++;
      if (writerCalls === 1) return { status: 503, retryAfter: "0" };
      if (writerCalls === 2) return { text: ANSWER };
      return { status: 400 };
    });
    const r = startOtlpReceiver();
    const s = await spawnServe(env({ OPENAI_BASE_URL: flaky.openaiBase, OTEL_EXPORTER_OTLP_ENDPOINT: r.url }));
    try {
      const { c, key } = await keyed(s);
      const ok = (await (await query(s.base, key, { query: QUESTION })).json()) as Envelope;
      expect(ok.status).toBe("ok");
      const a = await runTrace(r, ok.request_id);
      const plan = a.trace.find((x) => x.name === "research.plan")!;
      expect(plan.attributes["research.planner"]).toBe("fallback");
      expect(plan.events.map((e) => e.name)).toContain("fallback");
      const write = a.trace.find((x) => x.name === "research.write")!;
      expect(write.events).toEqual([
        { name: "retry", attributes: { "research.retry.attempt": 1, "error.type": expect.any(String) } },
      ]);
      expect(write.attributes["research.retries"]).toBe(1);
      expectRunTrace(a.trace, a.run, ok, key, c.cookie!);

      const failed = (await (await query(s.base, key, { query: QUESTION })).json()) as Envelope & {
        errors: { code: string }[];
      };
      expect(failed.errors[0]!.code).toBe("llm_failed");
      const b = await runTrace(r, failed.request_id);
      for (const name of ["research.write", "research.run"]) {
        const span = b.trace.find((x) => x.name === name)!;
        expect(span.status.code).toBe(2);
        expect(span.attributes).toMatchObject({ "error.type": "llm_failed", "research.error.code": "llm_failed" });
      }
      expect(everyText(b.trace)).not.toContain(QUESTION);
    } finally {
      s.proc.kill();
      r.stop();
      flaky.stop();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });
});

describe("traces over OTLP/HTTP JSON", () => {
  test("OTEL_EXPORTER_OTLP_PROTOCOL=http/json exports the same run as JSON", async () => {
    const r = startOtlpReceiver();
    const s = await spawnServe(
      env({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${r.url}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }),
    );
    try {
      const { c, key } = await keyed(s);
      const json = (await (await query(s.base, key, { query: QUESTION })).json()) as Envelope;
      const t = await runTrace(r, json.request_id);
      expectRunTrace(t.trace, t.run, json, key, c.cookie!);
      expect(r.contentTypes.every((x) => x.startsWith("application/json"))).toBe(true);
    } finally {
      s.proc.kill();
      r.stop();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });
});

describe("a collector that is down or hangs", () => {
  for (const kind of ["down", "hung"] as const)
    test(`${kind}: runs end as they would, the spans lost counted in /metrics`, async () => {
      const hung = kind === "hung" ? startOtlpReceiver({ hang: true }) : null;
      const s = await spawnServe(env({ OTEL_EXPORTER_OTLP_ENDPOINT: hung?.url ?? `http://127.0.0.1:${closedPort()}` }));
      try {
        const { key } = await keyed(s);
        const json = (await (await query(s.base, key, { query: QUESTION })).json()) as Envelope;
        expect(json.status).toBe("ok");
        expect(json.answer).toContain("Base editors");
        const { events } = await readSse(await query(s.base, key, { query: QUESTION }, {}, "/api/query/stream"));
        expect((events.at(-1)!.data as unknown as Envelope).status).toBe("ok");
        // The export fails (refused, or past its timeout): its spans are counted, not kept.
        let metrics = "";
        do {
          await Bun.sleep(100);
          metrics = await (await fetch(`${s.base}/metrics`)).text();
        } while (!/rq_trace_spans_dropped_total\{reason="export_failed"\} [1-9]/.test(metrics));
      } finally {
        s.proc.kill();
        hung?.stop();
        rmSync(s.dir, { recursive: true, force: true });
      }
    });
});
