import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { buildEngine } from "../../../src/research/build-engine.ts";
import { createLogger } from "../../../src/util/logger.ts";
import {
  type ChatBody,
  type ChatServer,
  isPlannerCall,
  type Reply,
  startChatServer,
} from "../../fixtures/chat-server.ts";
import { fixtureTokens, tokenWindow } from "../../fixtures/groq-limits.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

// Long pages, so the passages could fill far more than one call's budget: English and Chinese.
const EN = Array.from(
  { length: 40 },
  (_, i) =>
    `Study ${i + 1} of base editing measured how cytosine and adenine base editors change single DNA letters in cell line ${i + 1}, reporting editing efficiency, off-target deamination, indel rates below one percent and delivery by lipid nanoparticles carrying messenger RNA in experiment ${i + 1}.`,
);
const ZH = Array.from(
  { length: 40 },
  (_, i) =>
    `第${i + 1}项关于碱基编辑的研究测量了胞嘧啶碱基编辑器和腺嘌呤碱基编辑器如何在细胞系中改变单个DNA字母，报告了编辑效率、脱靶脱氨作用、低于百分之一的插入缺失率，以及通过携带信使核糖核酸的脂质纳米颗粒进行递送的结果，这是第${i + 1}次实验。`,
);
const page = (lang: string, title: string, paras: string[]) =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title></head><body><main><article><h1>${title}</h1>${paras.map((p) => `<p>${p}</p>`).join("\n")}</article></main></body></html>`;

let pages: ReturnType<typeof Bun.serve>, search: SearchFixtures, base: string;
beforeAll(() => {
  pages = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const p = new URL(req.url).pathname;
      const n = Number(p.split("/").at(-1));
      const html = p.startsWith("/zh/")
        ? page(
            "zh",
            `碱基编辑综述 ${n}`,
            ZH.map((t) => `${t}（来源${n}）`),
          )
        : page(
            "en",
            `Base editing review ${n}`,
            EN.map((t) => `${t} (source ${n})`),
          );
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  base = `http://127.0.0.1:${pages.port}`;
  search = startSearchFixtures(base);
});
afterAll(() => {
  pages.stop(true);
  search.stop();
});

const PLAN = (lang: string) => ({ text: `{"kind":"general","language":"${lang}","queries":["base editing"]}` });

/** A server whose model is Groq's free tier: 8,000 tokens a minute per model, refusals counted. */
async function groqServer(writer: (b: ChatBody) => Reply, env: Record<string, string> = {}) {
  const window = tokenWindow(8000, 60_000);
  const refusals: number[] = [];
  const chat = startChatServer(
    (b) => (isPlannerCall(b) ? PLAN(b.messages.at(-1)!.content.includes("碱基") ? "zh" : "en") : writer(b)),
    {
      window: {
        admit(model, n) {
          const a = window.admit(model, n);
          if (!a.ok) refusals.push(a.status);
          return a;
        },
      },
    },
  );
  const all = {
    GROQ_API_KEY: "gsk_fixture",
    GROQ_BASE_URL: chat.groqBase,
    SEARXNG_URL: search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    FETCH_ALLOW_PRIVATE: "true",
    PLAN_RUNS_FREE: "100",
    ...env,
  };
  const logs: string[] = [];
  const config = loadConfig({ DATABASE_PATH: ":memory:", ...all }, "/nonexistent");
  const engine = buildEngine(
    config,
    createLogger("debug", (l) => void logs.push(l)),
    undefined,
    {
      llmRetryBaseMs: 5,
      llmRetryCapMs: 20,
    },
  );
  const s = startTestServer({ engine, env: all });
  const { key } = await keyedClient(s.url);
  const stop = async () => {
    await s.stop(100);
    chat.stop();
  };
  return { s, key, chat, refusals, logs, stop };
}

const writerCalls = (chat: ChatServer) => chat.requests.filter((r) => !isPlannerCall(r.body));
const reserved = (b: ChatBody) => b.messages.reduce((t, m) => t + fixtureTokens(m.content), 0) + (b.max_tokens ?? 0);

describe("the writer fits Groq's free tier", () => {
  for (const [lang, paras, question] of [
    ["English", EN, "How do base editors change DNA letters?"],
    ["Chinese", ZH, "碱基编辑器如何改变DNA字母？"],
  ] as const) {
    test(`two ${lang} runs in the same minute fit an 8,000-token window, with no 429 or 413`, async () => {
      search.setWeb(
        [1, 2, 3, 4, 5, 6].map((n) => ({
          title: `Review ${n}`,
          url: `${base}/${lang === "Chinese" ? "zh" : "en"}/${n}`,
          snippet: paras[0]!,
        })),
      );
      const g = await groqServer(() => ({ text: "Base editors change one letter [S1][S2]." }));
      try {
        for (let i = 0; i < 2; i++) {
          const env = (await (await query(g.s.url, g.key, { query: question })).json()) as any;
          expect(env.status, JSON.stringify(env.errors)).toBe("ok");
        }
        expect(g.refusals).toEqual([]);
        const calls = writerCalls(g.chat);
        expect(calls).toHaveLength(2);
        for (const c of calls) {
          expect(reserved(c.body)).toBeLessThanOrEqual(4000);
          // The sources still fill most of the room left by the answer's.
          expect(reserved(c.body)).toBeGreaterThan(2500);
          expect(c.body.messages[1]!.content.match(/<source /g)!.length).toBeGreaterThanOrEqual(3);
        }
      } finally {
        await g.stop();
      }
    });
  }

  test("LLM_TOKEN_BUDGET sizes the call: a larger budget sends more sources' text and more answer room", async () => {
    search.setWeb([1, 2, 3, 4, 5].map((n) => ({ title: `Review ${n}`, url: `${base}/en/${n}`, snippet: EN[0]! })));
    const g = await groqServer(() => ({ text: "Base editors change one letter [S1]." }), { LLM_TOKEN_BUDGET: "7000" });
    try {
      const env = (await (
        await query(g.s.url, g.key, { query: "How do base editors change DNA letters?" })
      ).json()) as any;
      expect(env.status).toBe("ok");
      const [c] = writerCalls(g.chat);
      expect(c!.body.max_tokens).toBe(3150);
      expect(reserved(c!.body)).toBeGreaterThan(5500);
      expect(reserved(c!.body)).toBeLessThanOrEqual(7000);
    } finally {
      await g.stop();
    }
  });
});

describe("a cut answer is never a finished run", () => {
  test("llama.cpp's error line mid-answer: the stream shows the text so far, then llm_failed with the server's reason", async () => {
    search.setWeb([1, 2].map((n) => ({ title: `Review ${n}`, url: `${base}/en/${n}`, snippet: EN[0]! })));
    const g = await groqServer(() => ({
      text: "Base editors change one letter without cutting [S1] and they",
      chunkChars: 6,
      errorAfterChunks: 4,
      errorAs: "line",
      errorPayload: { detail: "failed to decode the batch, n_tokens = 512" },
    }));
    try {
      const { events } = await readSse(
        await query(g.s.url, g.key, { query: "How do base editors change DNA letters?" }, {}, "/api/query/stream"),
      );
      expect(answerOf(events)).toBe("Base editors change one ");
      const final = events.at(-1)!.data;
      expect(final.status).toBe("error");
      expect(final.answer).toBeNull();
      expect(final.errors[0].code).toBe("llm_failed");
      expect(final.errors[0].message).toContain("failed to decode the batch");
      // The operator's log says why too.
      expect(g.logs.some((l) => l.includes("llm_call_failed") && l.includes("failed to decode the batch"))).toBe(true);
    } finally {
      await g.stop();
    }
  });
});
