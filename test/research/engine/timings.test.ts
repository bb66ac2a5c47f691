import { describe, expect, test } from "bun:test";
import { DEFAULT_TIMINGS, resolveTimings, retryPolicy } from "../../../src/research/engine/timings.ts";
import { DEFAULT_RETRY } from "../../../src/research/llm/retry.ts";

describe("engine timings", () => {
  test("the defaults are production's documented clocks", () => {
    // README "How a run works": 8 s a page, 15 s the stage, stragglers 1.5 s at most; retries as the clients do.
    expect(DEFAULT_TIMINGS).toEqual({
      pageTimeoutMs: 8_000,
      readStageMs: 15_000,
      stragglerGraceMinMs: 150,
      stragglerGraceMaxMs: 1_500,
      parseJobMs: 20_000,
      llmRetryBaseMs: 250,
      llmRetryCapMs: 4_000,
      llmRetryAfterCapMs: 60_000,
      llmAttemptMs: { openai: 180_000, groq: 120_000 },
      searchTimeoutMs: {
        searxng: 8_000,
        brave: 8_000,
        tavily: 8_000,
        openalex: 8_000,
        semantic_scholar: 8_000,
        arxiv: 10_000,
        crossref: 10_000,
      },
      academicRecheckMs: 30_000,
      secondOpinionMs: 15_000,
    });
    expect(resolveTimings()).toEqual(DEFAULT_TIMINGS);
    expect(retryPolicy(DEFAULT_TIMINGS)).toEqual(DEFAULT_RETRY);
  });

  test("an override changes what it names; one provider's timeout leaves the others; undefined is unset", () => {
    const t = resolveTimings({
      pageTimeoutMs: 300,
      readStageMs: undefined,
      searchTimeoutMs: { arxiv: 50 },
      llmAttemptMs: { groq: undefined },
    });
    expect(t.pageTimeoutMs).toBe(300);
    expect(t.readStageMs).toBe(15_000);
    expect(t.searchTimeoutMs).toEqual({ ...DEFAULT_TIMINGS.searchTimeoutMs, arxiv: 50 });
    expect(t.llmAttemptMs).toEqual(DEFAULT_TIMINGS.llmAttemptMs);
    expect(DEFAULT_TIMINGS.searchTimeoutMs.arxiv).toBe(10_000);
  });

  test("the retry policy follows the LLM timings and keeps the number of retries", () => {
    const p = retryPolicy(resolveTimings({ llmRetryBaseMs: 5, llmRetryCapMs: 20, llmRetryAfterCapMs: 100 }));
    expect(p).toEqual({ retries: DEFAULT_RETRY.retries, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 100 });
  });
});
