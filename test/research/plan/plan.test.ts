import { afterEach, describe, expect, test } from "bun:test";
import { LlmError } from "../../../src/research/llm/llm-error.ts";
import { createOpenAiCompatibleClient } from "../../../src/research/llm/openai-compatible.ts";
import { heuristicPlan, keywordQuery } from "../../../src/research/plan/heuristic.ts";
import { parsePlan } from "../../../src/research/plan/parse-plan.ts";
import { planQuery } from "../../../src/research/plan/plan-query.ts";
import { type ChatServer, startChatServer } from "../../fixtures/chat-server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

let srv: ChatServer | undefined;
afterEach(() => srv?.stop());

describe("reading the planner's output", () => {
  test("JSON wrapped in <think>, prose and code fences", () => {
    const p = parsePlan(
      '<think>hmm {"no": 1}</think>Sure! Here is the plan:\n```json\n{"kind": "academic", "language": "en", "queries": ["base editing efficiency", "base editor off-target"]}\n```\nHope it helps.',
    );
    expect(p).toEqual({
      kind: "academic",
      language: "en",
      queries: ["base editing efficiency", "base editor off-target"],
    });
  });

  test("a decoy {…} in the prose before the real object is skipped", () => {
    expect(
      parsePlan('Format is {kind, language, queries}. Answer: {"kind":"news","language":"en","queries":["x {y} z"]}'),
    ).toEqual({ kind: "news", language: "en", queries: ["x {y} z"] });
  });

  test("repairs broken JSON: single quotes, unquoted keys, trailing commas, comments; caps at 4 queries", () => {
    expect(parsePlan("{kind: 'news', language: 'de', queries: ['a', 'b', 'c', 'd', 'e',],}")).toEqual({
      kind: "news",
      language: "de",
      queries: ["a", "b", "c", "d"],
    });
    expect(
      parsePlan('{\n  // the plan\n  "kind": "general", "language": "en", "queries": ["what\'s new, really: x",],\n}'),
    ).toEqual({ kind: "general", language: "en", queries: ["what's new, really: x"] });
  });

  test("an object cut off by the token limit is closed and read", () => {
    expect(parsePlan('{"kind": "academic", "language": "fr", "queries": ["photosynthèse", "chlorophylle')).toEqual({
      kind: "academic",
      language: "fr",
      queries: ["photosynthèse", "chlorophylle"],
    });
  });

  test("near misses are normalised: language names and region tags, kind synonyms, duplicate queries", () => {
    expect(parsePlan('{"kind": "Scientific", "language": "English", "queries": ["a", "A ", "b"]}')).toEqual({
      kind: "academic",
      language: "en",
      queries: ["a", "b"],
    });
    expect(parsePlan('{"kind": "current_events", "language": "pt-BR", "queries": "eleições"}')).toEqual({
      kind: "news",
      language: "pt",
      queries: ["eleições"],
    });
    expect(parsePlan('{"kind": "general", "language": "??", "queries": ["q"]}', "de")!.language).toBe("de");
  });

  test("garbage and wrong shapes give null", () => {
    expect(parsePlan("no json here")).toBeNull();
    expect(parsePlan('{"kind": "poetry", "language": "en", "queries": ["x"]}')).toBeNull();
    expect(parsePlan('{"kind": "news", "language": "en", "queries": []}')).toBeNull();
    expect(parsePlan('<think>{"kind":"news","language":"en","queries":["only in thought"]}</think>')).toBeNull();
  });
});

describe("heuristic plan (no model)", () => {
  test("kinds from cue words", () => {
    expect(heuristicPlan("What does the evidence from randomized trials say about vitamin D?").kind).toBe("academic");
    expect(heuristicPlan("Is there a meta-analysis of intermittent fasting? doi welcome").kind).toBe("academic");
    expect(heuristicPlan("What is the latest news on the election today?").kind).toBe("news");
    expect(heuristicPlan("Bitcoin price in 2026").kind).toBe("news");
    expect(heuristicPlan("Latest clinical trial results for base editing 2026").kind).toBe("mixed");
    expect(heuristicPlan("How do I bake sourdough bread?").kind).toBe("general");
    expect(heuristicPlan("Quelles sont les dernières études sur le sommeil ?").kind).toBe("mixed");
  });

  test("languages from script and function words", () => {
    const cases: [string, string][] = [
      ["Wie funktioniert die Photosynthese und warum ist sie wichtig?", "de"],
      ["Comment fonctionne la photosynthèse et pourquoi est-elle importante ?", "fr"],
      ["¿Cuáles son los beneficios del ejercicio para la salud?", "es"],
      ["Quali sono le cause del cambiamento climatico?", "it"],
      ["Qual é a capital do Brasil e como funciona o governo?", "pt"],
      ["Wat is het beste recept voor appeltaart?", "nl"],
      ["How does photosynthesis work?", "en"],
      ["Как работает фотосинтез?", "ru"],
      ["光合成はどのように機能しますか", "ja"],
      ["什么是量子计算", "zh"],
      ["양자 컴퓨팅이란 무엇인가", "ko"],
      ["ما هو التمثيل الضوئي", "ar"],
    ];
    for (const [q, lang] of cases) expect(heuristicPlan(q).language, q).toBe(lang);
  });

  test("queries: the question and its keywords, stop words of its language removed", () => {
    expect(heuristicPlan("What is the boiling point of water at high altitude?").queries).toEqual([
      "What is the boiling point of water at high altitude?",
      "boiling point water high altitude",
    ]);
    expect(keywordQuery("Wie funktioniert die Photosynthese und warum ist sie wichtig?", "de")).toBe(
      "funktioniert Photosynthese wichtig",
    );
    // "war" and "die" are German stop words but English content words.
    expect(keywordQuery("Why did the war in Vietnam start and why did so many die?", "en")).toBe(
      "war Vietnam start many die",
    );
  });
});

describe("planQuery", () => {
  test("with a model: the fast model plans, the question stays a query; garbage or failure falls back", async () => {
    let reply = '<think>easy</think>{"kind":"academic","language":"en","queries":["q1","q2"]}';
    let status = 200;
    srv = startChatServer(() => (status === 200 ? { text: reply } : { status }));
    const llm = {
      client: createOpenAiCompatibleClient({
        baseUrl: srv.openaiBase,
        retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 },
      }),
      model: "big",
      fastModel: "small",
    };
    const ok = await planQuery("Why is the sky blue?", { llm, signal: AbortSignal.timeout(5000) });
    expect(ok.source).toBe("llm");
    expect(ok.plan).toEqual({ kind: "academic", language: "en", queries: ["q1", "q2", "Why is the sky blue?"] });
    expect(srv.requests[0]!.body.model).toBe("small");
    expect(srv.requests[0]!.body.messages[0]!.content).toContain("JSON only");
    expect(ok.tokens_in).toBeGreaterThan(0);
    expect(ok.tokens_out).toBe(Math.ceil(reply.length / 4));
    reply = "I cannot do that.";
    const garbage = await planQuery("Why is the sky blue?", { llm, signal: AbortSignal.timeout(5000) });
    expect(garbage.source).toBe("fallback");
    expect(garbage.plan).toEqual(heuristicPlan("Why is the sky blue?"));
    status = 500;
    const failed = await planQuery("Why is the sky blue?", { llm, signal: AbortSignal.timeout(5000) });
    expect(failed.source).toBe("fallback");
    expect(failed.plan.queries[0]).toBe("Why is the sky blue?");
  });

  test("without a model: heuristic, no tokens", async () => {
    const r = await planQuery("Why is the sky blue?", { llm: null, signal: AbortSignal.timeout(5000) });
    expect(r).toEqual({
      plan: heuristicPlan("Why is the sky blue?"),
      source: "heuristic",
      tokens_in: 0,
      tokens_out: 0,
    });
  });

  test("an abort is the one thing that propagates", async () => {
    srv = startChatServer(() => ({ hang: true }));
    const llm = { client: createOpenAiCompatibleClient({ baseUrl: srv.openaiBase }), model: "m" };
    const ac = new AbortController();
    const planning = planQuery("Why is the sky blue?", { llm, signal: ac.signal }).catch((x) => x);
    await srv.untilRequests(1);
    ac.abort();
    const e = await planning;
    expect(e).toBeInstanceOf(LlmError);
    expect(e.reason).toBe("aborted");
  });
});
