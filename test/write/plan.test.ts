import { afterEach, describe, expect, test } from "bun:test";
import { createOpenAiCompatibleClient } from "../../src/research/llm/openai-compatible.ts";
import { heuristicPlan } from "../../src/research/plan/heuristic.ts";
import { parsePlan } from "../../src/research/plan/parse-plan.ts";
import { planQuery } from "../../src/research/plan/plan-query.ts";
import { startChatServer, type ChatServer } from "../fixtures/chat-server.ts";

let srv: ChatServer | undefined;
afterEach(() => srv?.stop());

describe("planner", () => {
  test("reads JSON wrapped in <think>, prose and code fences", () => {
    const p = parsePlan('<think>hmm {"no": 1}</think>Sure! Here is the plan:\n```json\n{"kind": "academic", "language": "en", "queries": ["base editing efficiency", "base editor off-target"]}\n```\nHope it helps.');
    expect(p).toEqual({ kind: "academic", language: "en", queries: ["base editing efficiency", "base editor off-target"] });
  });

  test("repairs broken JSON: single quotes, unquoted keys, trailing commas; caps at 4 queries", () => {
    expect(parsePlan("{kind: 'news', language: 'de', queries: ['a', 'b', 'c', 'd', 'e',],}")).toEqual({ kind: "news", language: "de", queries: ["a", "b", "c", "d"] });
    expect(parsePlan("no json here")).toBeNull();
    expect(parsePlan('{"kind": "poetry", "language": "en", "queries": ["x"]}')).toBeNull();
  });

  test("heuristic plan: kinds from cues, languages from text", () => {
    expect(heuristicPlan("What does the evidence from randomized trials say about vitamin D?").kind).toBe("academic");
    expect(heuristicPlan("What is the latest news on the election today?").kind).toBe("news");
    expect(heuristicPlan("Latest clinical trial results for base editing 2026").kind).toBe("mixed");
    expect(heuristicPlan("How do I bake sourdough bread?").kind).toBe("general");
    expect(heuristicPlan("Wie funktioniert die Photosynthese und warum ist sie wichtig?").language).toBe("de");
    expect(heuristicPlan("Comment fonctionne la photosynthèse et pourquoi est-elle importante ?").language).toBe("fr");
    expect(heuristicPlan("光合成はどのように機能しますか").language).toBe("ja");
    expect(heuristicPlan("Как работает фотосинтез?").language).toBe("ru");
    const p = heuristicPlan("What is the boiling point of water at high altitude?");
    expect(p.queries).toEqual(["What is the boiling point of water at high altitude?", "boiling point water high altitude"]);
  });

  test("with a model: its plan is used and the question stays a query; garbage or failure falls back", async () => {
    let reply = '{"kind":"academic","language":"en","queries":["q1","q2"]}';
    let status = 200;
    srv = startChatServer(() => (status === 200 ? { text: reply } : { status }));
    const llm = { client: createOpenAiCompatibleClient({ baseUrl: srv.openaiBase, retry: { retries: 1, baseDelayMs: 5, maxDelayMs: 10 } }), model: "big", fastModel: "small" };
    const ok = await planQuery("Why is the sky blue?", { llm, signal: AbortSignal.timeout(5000) });
    expect(ok.source).toBe("llm");
    expect(ok.plan.queries).toEqual(["q1", "q2", "Why is the sky blue?"]);
    expect(srv.requests[0]!.body.model).toBe("small");
    expect(ok.tokens_in).toBeGreaterThan(0);
    reply = "I cannot do that.";
    expect((await planQuery("Why is the sky blue?", { llm, signal: AbortSignal.timeout(5000) })).source).toBe("fallback");
    status = 500;
    const failed = await planQuery("Why is the sky blue?", { llm, signal: AbortSignal.timeout(5000) });
    expect(failed.source).toBe("fallback");
    expect(failed.plan.queries[0]).toBe("Why is the sky blue?");
  });
});
