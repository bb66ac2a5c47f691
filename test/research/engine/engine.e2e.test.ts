import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { buildEngine } from "../../../src/research/build-engine.ts";
import type { TimingsOverride } from "../../../src/research/engine/timings.ts";
import type { DeadlineTimer } from "../../../src/runs/execute.ts";
import { createLogger } from "../../../src/util/logger.ts";
import {
  type ChatBody,
  type ChatServer,
  isPlannerCall,
  type Reply,
  startChatServer,
} from "../../fixtures/chat-server.ts";
import { type PageServer, startPageServer } from "../../fixtures/page-server.ts";
import { PROVIDERS, type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";
import { Client, query, startTestServer, type TestServer } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

let pages: PageServer, search: SearchFixtures, chat: ChatServer;
let writer: (b: ChatBody) => Reply = () => ({ text: "" });
beforeAll(() => {
  pages = startPageServer();
  search = startSearchFixtures(pages.base);
  search.setWeb([
    {
      title: "CRISPR base editing explained",
      url: "/article/base-editing",
      snippet: "Base editors change single DNA letters.",
    },
    { title: "Base editing: a review", url: "/article/review", snippet: "A review of base editors." },
    { title: "Base editing facts", url: "/article/injection", snippet: "Facts." },
    { title: "Stuck page", url: "/hang", snippet: "never answers" },
  ]);
  chat = startChatServer((b) =>
    isPlannerCall(b)
      ? {
          text: '<think>easy</think>{"kind":"mixed","language":"en","queries":["base editing","base editor off-target"]}',
        }
      : writer(b),
  );
});
afterAll(() => {
  pages.stop();
  search.stop();
  chat.stop();
});

const baseEnv = () => ({
  SEARXNG_URL: search.urls.searxng,
  OPENALEX_URL: search.urls.openalex,
  ARXIV_URL: search.urls.arxiv,
  CROSSREF_URL: search.urls.crossref,
  FETCH_ALLOW_PRIVATE: "true",
  PLAN_RUNS_FREE: "100",
});

/**
 * The engine's clocks shrunk to fixture speed (pages answer in milliseconds on loopback):
 * the stuck page is cut after 300 ms instead of 8 s, retries back off for milliseconds.
 */
const FAST: TimingsOverride = {
  pageTimeoutMs: 300,
  readStageMs: 2_000,
  stragglerGraceMaxMs: 300,
  llmRetryBaseMs: 5,
  llmRetryCapMs: 20,
};

async function serve(
  env: Record<string, string>,
  runDeadline?: DeadlineTimer,
): Promise<{ s: TestServer; key: string; c: Client }> {
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...baseEnv(), ...env }, "/nonexistent");
  const engine = buildEngine(config, createLogger("silent"), undefined, FAST);
  const s = startTestServer({ engine, env: { ...baseEnv(), ...env }, runDeadline });
  const c = new Client(s.url);
  await c.signup();
  return { s, key: (await c.createKey()).key, c };
}

function checkCitations(env: any) {
  expect(env.sources.length).toBeGreaterThan(0);
  expect(env.sources.length).toBeLessThanOrEqual(5);
  const markers = new Set([...env.answer.matchAll(/\[S(\d+)\]/g)].map((m: RegExpMatchArray) => `S${m[1]}`));
  expect([...markers].sort()).toEqual(env.sources.map((s: any) => s.id).sort());
  env.sources.forEach((s: any, i: number) => {
    expect(s.id).toBe(`S${i + 1}`);
    expect(s.url).toMatch(/^https?:\/\//);
    expect(["web", "academic"]).toContain(s.type);
    expect(typeof s.title).toBe("string");
    expect(typeof s.provider).toBe("string");
  });
  const first = [...env.answer.matchAll(/\[S(\d+)\]/g)].map((m: RegExpMatchArray) => Number(m[1]));
  const order = first.filter((n, i) => first.indexOf(n) === i);
  expect(order).toEqual(order.slice().sort((a, b) => a - b));
}

describe("end to end with an LLM (OpenAI-compatible fixture)", () => {
  test("/api/query: cited answer; [S9] of fewer sources dropped; think removed; tokens estimated", async () => {
    writer = () => ({
      text: "<think>let me think</think>Base editing changes one DNA letter without cutting both strands [S1]. It makes fewer indels than Cas9 [S2][S1]. Trials began in 2022 [S9].",
    });
    const { s, key } = await serve({
      OPENAI_BASE_URL: chat.openaiBase,
      LLM_MODEL: "writer-model",
      LLM_FAST_MODEL: "planner-model",
    });
    try {
      const res = await query(s.url, key, { query: "How does CRISPR base editing work?" });
      const env = (await res.json()) as any;
      expect(env.status).toBe("ok");
      expect(env.writer).toBe("llm");
      expect(env.answer).not.toContain("think");
      expect(env.answer).not.toContain("[S9]");
      checkCitations(env);
      expect(env.usage.tokens_in).toBeGreaterThan(100);
      expect(env.usage.tokens_out).toBeGreaterThan(10);
      const writerCall = chat.requests.findLast((r) => !isPlannerCall(r.body))!;
      expect(writerCall.body.model).toBe("writer-model");
      expect(chat.requests.find((r) => isPlannerCall(r.body))!.body.model).toBe("planner-model");
      // The page telling the model to ignore its instructions arrives fenced as data.
      const user = writerCall.body.messages.find((m) => m.role === "user")!.content;
      if (user.includes("IGNORE PREVIOUS INSTRUCTIONS")) {
        const i = user.indexOf("IGNORE PREVIOUS INSTRUCTIONS");
        expect(user.lastIndexOf("<source", i)).toBeGreaterThan(user.lastIndexOf("</source>", i));
      }
    } finally {
      await s.stop(100);
    }
  });

  test("/api/query/stream: first event progress, all five stages (verifying just before final), sources before answer, final last", async () => {
    writer = () => ({
      text: "Base editing converts single bases [S1]; reviews describe the deaminase window [S2].",
      chunkChars: 5,
    });
    const { s, key } = await serve({ OPENAI_BASE_URL: chat.openaiBase });
    try {
      const { events } = await readSse(
        await query(s.url, key, { query: "How does CRISPR base editing work?" }, {}, "/api/query/stream"),
      );
      const names = events.map((e) => e.event);
      expect(names[0]).toBe("progress");
      expect(names.at(-1)).toBe("final");
      const stages = events.filter((e) => e.event === "progress").map((e) => e.data.stage);
      expect([...new Set(stages)]).toEqual(["planning", "searching", "reading", "writing", "verifying"]);
      // The claim check's counts come last, just before final (on a parse worker here: the server's engine).
      expect(events.at(-2)).toMatchObject({ event: "progress", data: { stage: "verifying" } });
      expect(events.at(-2)!.data.claims).toBe(events.at(-1)!.data.verification.claims);
      expect(names.lastIndexOf("source")).toBeLessThan(names.indexOf("answer"));
      expect(names.filter((n) => n === "answer").length).toBeGreaterThan(3);
      const final = events.at(-1)!.data;
      expect(final.status).toBe("ok");
      checkCitations(final);
      expect(answerOf(events)).toContain("Base editing converts single bases");
      // The never-answering page was cut at the reading deadline, not waited for.
      expect(
        events.some((e) => e.event === "progress" && e.data.url?.endsWith("/hang") && e.data.used === "none"),
      ).toBe(true);
    } finally {
      await s.stop(100);
    }
  });

  test("Groq through groq-sdk against the fixture's Groq path", async () => {
    // Cited to the page that says it: the claim check removes a marker on a source that doesn't.
    writer = (b) => {
      const id = b.messages.at(-1)!.content.match(/id="(S\d+)" title="CRISPR base editing explained"/)?.[1];
      return { text: `Base editors swap single letters [${id}].` };
    };
    const { s, key } = await serve({ GROQ_API_KEY: "gsk_fixture", GROQ_BASE_URL: chat.groqBase });
    try {
      const env = (await (await query(s.url, key, { query: "What is base editing?" })).json()) as any;
      expect(env.status).toBe("ok");
      checkCitations(env);
      expect(chat.requests.at(-1)!.path).toBe("/openai/v1/chat/completions");
    } finally {
      await s.stop(100);
    }
  });

  test("repeated 500s from the writer's model → llm_failed (HTTP 200, status error, counted)", async () => {
    writer = () => ({ status: 500 });
    const { s, key, c } = await serve({ OPENAI_BASE_URL: chat.openaiBase });
    try {
      const res = await query(s.url, key, { query: "What is base editing?" });
      expect(res.status).toBe(200);
      const env = (await res.json()) as any;
      expect(env).toMatchObject({ status: "error", answer: null, sources: [] });
      expect(env.errors[0].code).toBe("llm_failed");
      const usage = (await (await c.req("GET", "/api/console/usage")).json()) as any;
      expect(usage.allowance.used).toBe(1);
    } finally {
      await s.stop(100);
    }
  });

  test("a writer that hangs past RUN_TIMEOUT_MS → run_timeout", async () => {
    // The deadline passes on cue once the writer's call hangs, not after a wall-clock time the
    // run may or may not have reached the writer by on a loaded machine.
    const writing = Promise.withResolvers<void>();
    writer = () => {
      writing.resolve();
      return { hang: true };
    };
    const deadlines: { ms: number; pass: () => void }[] = [];
    const { s, key } = await serve({ OPENAI_BASE_URL: chat.openaiBase, RUN_TIMEOUT_MS: "60000" }, (pass, ms) => {
      deadlines.push({ ms, pass });
      return () => {};
    });
    try {
      const answer = query(s.url, key, { query: "What is base editing?" }).then((r) => r.json() as Promise<any>);
      await writing.promise;
      expect(deadlines).toHaveLength(1);
      // RUN_TIMEOUT_MS counts from the call's arrival.
      expect(deadlines[0]!.ms).toBeGreaterThan(0);
      expect(deadlines[0]!.ms).toBeLessThanOrEqual(60_000);
      deadlines[0]!.pass();
      const env = await answer;
      expect(env.errors[0].code).toBe("run_timeout");
    } finally {
      await s.stop(100);
    }
  });
});

describe("end to end without an LLM", () => {
  test("extractive answer from what was read, every sentence cited", async () => {
    const { s, key } = await serve({});
    try {
      const env = (await (
        await query(s.url, key, { query: "How do base editors avoid double-strand breaks?" })
      ).json()) as any;
      expect(env.status).toBe("ok");
      expect(env.writer).toBe("extractive");
      checkCitations(env);
      expect(env.usage.tokens_in).toBe(0);
    } finally {
      await s.stop(100);
    }
  });

  test("search failing everywhere → search_failed; nothing readable → no_sources", async () => {
    const { s, key } = await serve({});
    try {
      for (const p of PROVIDERS) search.setMode(p, "500");
      const env = (await (await query(s.url, key, { query: "base editing" })).json()) as any;
      expect(env.errors[0].code).toBe("search_failed");
      for (const p of PROVIDERS) search.setMode(p, "ok");
      search.setMode("openalex", "empty");
      search.setMode("arxiv", "empty");
      search.setMode("crossref", "empty");
      const saved = [
        { title: "Binary", url: "/binary", snippet: "" },
        { title: "Tiny", url: "/tiny", snippet: "" },
      ];
      search.setWeb(saved);
      const env2 = (await (await query(s.url, key, { query: "base editing" })).json()) as any;
      expect(env2.errors[0].code).toBe("no_sources");
    } finally {
      for (const p of PROVIDERS) search.setMode(p, "ok");
      search.setWeb([
        { title: "CRISPR base editing explained", url: "/article/base-editing", snippet: "Base editors." },
        { title: "Base editing: a review", url: "/article/review", snippet: "Review." },
      ]);
      await s.stop(100);
    }
  });

  test("with the SSRF guard on, loopback pages are never fetched; academic abstracts still answer", async () => {
    const before = pages.totalHits();
    const { s, key } = await serve({ FETCH_ALLOW_PRIVATE: "false" });
    try {
      const env = (await (await query(s.url, key, { query: "base editing study" })).json()) as any;
      expect(pages.totalHits()).toBe(before);
      expect(env.status).toBe("ok");
      expect(env.sources.every((x: any) => x.type === "academic" && x.read === "abstract")).toBe(true);
    } finally {
      await s.stop(100);
    }
  });
});
