import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { Metrics } from "../../../src/metrics/registry.ts";
import { buildEngine } from "../../../src/research/build-engine.ts";
import { createEngine } from "../../../src/research/engine/engine.ts";
import type { TimingsOverride } from "../../../src/research/engine/timings.ts";
import { inlineVerifier, type Verifier } from "../../../src/research/engine/verify-stage.ts";
import { createCheckingModel } from "../../../src/research/llm/checking-model.ts";
import { buildLlm } from "../../../src/research/llm/factory.ts";
import { buildSearchProviders } from "../../../src/research/search/registry.ts";
import type { Engine } from "../../../src/research/types.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { type CheckingMode, type CheckingModelServer, startCheckingModel } from "../../fixtures/checking-model.ts";
import {
  type CitedPages,
  type Claims,
  citing,
  STATINS_AND_SLEEP,
  sentenceOf,
  startCitedPages,
} from "../../fixtures/cited-pages.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

// The second opinion through the running server (README "Claims you can check"): a model
// (fixture) writes three claims; the check is sure of the first (its source's words) and
// unsure of the other two, which alone go to the checking model (fixture): a faithful denial
// the check takes for a contradiction, and a turned direction it misses. The model's Yes
// restores the first one's marker, its No removes the second's; every way it can fail leaves
// the check's verdicts and a note in `errors`.
const PAGES = STATINS_AND_SLEEP;
const SURE = "The trial followed 4,000 adults aged over 65 for ten years.";
const BACKED = "Cholesterol did not rise in any group that took the drug.";
const UNBACKED = "Fewer older adults developed diabetes on statins.";
const CLAIMS: Claims = [
  [SURE, "Statin use"],
  [BACKED, "Statin use"],
  [UNBACKED, "Statin use"],
];

let world: CitedPages, checker: CheckingModelServer;
beforeAll(() => {
  world = startCitedPages(PAGES, ["statins"], (idOf) => citing(CLAIMS, idOf));
  checker = startCheckingModel((claim) => (claim === BACKED ? "Yes" : "No."));
});
afterAll(() => {
  world.stop();
  checker.stop();
});
beforeEach(() => {
  checker.calls.length = 0;
  checker.mode = "answers";
});

const QUESTION = "What do statins do in older adults, and does evening exercise help sleep?";
const evidenceOf = (env: any, claim: string) =>
  env.sources
    .flatMap((s: any) => s.evidence.map((e: any) => ({ ...e, source: s.id })))
    .find((e: any) => e.claim === claim);

/** A run through the server, its engine built from the config with these VERIFY_* settings. */
async function ask(
  verify: Record<string, string>,
  o: { timings?: TimingsOverride; wrap?: (e: Engine) => Engine; extractive?: boolean } = {},
): Promise<{ env: any; verifying: string; events: string[]; metrics: string }> {
  const env0 = {
    SEARXNG_URL: world.search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    LOCAL_SEARCH: "off",
    FETCH_ALLOW_PRIVATE: "true",
    ...(o.extractive ? {} : { OPENAI_BASE_URL: world.chat.openaiBase }),
    ...verify,
  };
  const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...env0 }, "/nonexistent");
  const metrics = new Metrics(() => 0);
  const engine = buildEngine(config, createLogger("silent"), metrics, o.timings);
  const s = startTestServer({ engine: o.wrap ? o.wrap(engine) : engine, env: env0, metrics });
  try {
    const { key } = await keyedClient(s.url);
    const st = await readSse(await query(s.url, key, { query: QUESTION }, {}, "/api/query/stream"));
    const verifying = st.events.find((e) => e.event === "progress" && e.data.stage === "verifying")!.data.message;
    const scraped = await (await fetch(`${s.url}/metrics`)).text();
    return { env: st.events.at(-1)!.data, verifying, events: st.events.map((e) => e.event), metrics: scraped };
  } finally {
    await s.stop(100);
  }
}

/** The check's own verdicts of BACKED and UNBACKED, with no model configured: what every failure must leave. */
let alone: string[] = [];
beforeAll(async () => {
  const { env } = await ask({});
  alone = [evidenceOf(env, BACKED).verdict, evidenceOf(env, UNBACKED).verdict];
});

describe("a second opinion on the claims the check is unsure of", () => {
  test("not configured: the checking model is never called, and the check's verdicts stand", async () => {
    const { env } = await ask({});
    expect(checker.calls).toEqual([]);
    expect(env.status).toBe("ok");
    expect(env.errors).toEqual([]);
    // The check alone takes the denial for a contradiction and keeps the turned direction's marker: what the model is asked to settle.
    expect(alone[0]).toBe("contradicted");
    expect(["supported", "partial"]).toContain(alone[1]!);
    expect([evidenceOf(env, BACKED).verdict, evidenceOf(env, UNBACKED).verdict]).toEqual(alone);
    expect(sentenceOf(env.answer, "Cholesterol did")).toBe(BACKED);
    expect(sentenceOf(env.answer, "Fewer older")).toMatch(/\[S1\]\.$/);
  });

  test("asked about the unsure claims only: its Yes keeps a marker as supported, its No removes one", async () => {
    const { env, verifying, metrics } = await ask({ VERIFY_BASE_URL: checker.base, VERIFY_API_KEY: "vk-test" });
    expect(checker.calls.map((c) => c.claim).sort()).toEqual([UNBACKED, BACKED].sort());
    const call = checker.calls.find((c) => c.claim === BACKED)!;
    // MiniCheck's question, the quote with its surroundings (not the whole page), a one-word answer's room.
    expect(call.model).toBe("bespoke-minicheck");
    expect(call.authorization).toBe("Bearer vk-test");
    expect(call.document).toContain("Cholesterol levels fell in every group");
    expect(call.document).not.toContain("Researchers tracked");
    expect(call.maxTokens).toBe(16);
    expect(env.status).toBe("ok");
    expect(env.errors).toEqual([]);
    expect(sentenceOf(env.answer, SURE.slice(0, 20))).toMatch(/\[S1\]\.$/);
    expect(sentenceOf(env.answer, "Cholesterol did")).toMatch(/\[S1\]\.$/);
    expect(sentenceOf(env.answer, "Fewer older")).toBe(UNBACKED);
    expect(evidenceOf(env, BACKED).verdict).toBe("supported");
    expect(evidenceOf(env, UNBACKED)).toBeUndefined();
    expect(env.verification).toMatchObject({ claims: 3, supported: 2, unsupported: 1, contradicted: 0 });
    expect(verifying).toContain("the checking model was asked about 2 claims and changed 2");
    expect(metrics).toContain('rq_upstream_calls_total{outcome="ok",provider="verify"} 2');
  });

  test("an extractive answer's quotes are the source's words: the model is never asked", async () => {
    const { env } = await ask({ VERIFY_BASE_URL: checker.base }, { extractive: true });
    expect(env.writer).toBe("extractive");
    expect(checker.calls).toEqual([]);
    expect(env.errors).toEqual([]);
    expect(env.verification.supported).toBe(env.verification.claims);
  });

  const FAILURES: [CheckingMode, RegExp][] = [
    ["garbage", /not Yes or No/],
    ["shape", /the checking model/i],
    ["cut", /output limit/],
    ["broken", /the checking model's answer broke/],
    ["rate_limited", /HTTP 429: Rate limit reached/],
    ["server_error", /HTTP 500/],
  ];
  for (const [mode, words] of FAILURES)
    test(`a checking model that answers ${mode} leaves the run ok with the check's verdicts and a note in errors`, async () => {
      checker.mode = mode;
      checker.retryAfter = "1";
      const { env, verifying, events } = await ask(
        { VERIFY_BASE_URL: checker.base },
        { timings: { llmRetryBaseMs: 1 } },
      );
      expect(checker.calls.length).toBeGreaterThanOrEqual(2);
      expect(env.status).toBe("ok");
      // A note, not a failure: no `error` event on the stream, only the final envelope's `errors`.
      expect(events).not.toContain("error");
      expect([evidenceOf(env, BACKED).verdict, evidenceOf(env, UNBACKED).verdict]).toEqual(alone);
      expect(sentenceOf(env.answer, "Cholesterol did")).toBe(BACKED);
      expect(sentenceOf(env.answer, "Fewer older")).toMatch(/\[S1\]\.$/);
      expect(env.errors).toEqual([{ code: "second_opinion_failed", message: expect.stringMatching(words) }]);
      expect(env.errors[0].message).toContain("could not judge 2 of 2 claims");
      expect(verifying).toContain("asked about 2 claims and changed 0 (some failed: see errors)");
    });

  test("a 429 asking for longer than the run's bound for the model is not waited for", async () => {
    checker.mode = "rate_limited";
    checker.retryAfter = "30";
    const { env } = await ask({ VERIFY_BASE_URL: checker.base }, { timings: { secondOpinionMs: 5_000 } });
    expect(checker.calls.length).toBe(2);
    expect(env.status).toBe("ok");
    expect(env.errors[0].message).toContain("not retried");
  });

  test("a model that never answers is given up at the run's bound for it", async () => {
    checker.mode = "hang";
    const { env } = await ask({ VERIFY_BASE_URL: checker.base }, { timings: { secondOpinionMs: 600 } });
    expect(env.status).toBe("ok");
    expect(evidenceOf(env, UNBACKED).verdict).toBe(alone[1]!);
    expect(env.errors).toEqual([
      { code: "second_opinion_failed", message: expect.stringContaining("no answer before the run's bound for it") },
    ]);
  });

  test("a model that cannot be reached is a note, not a failure", async () => {
    const { env } = await ask({ VERIFY_BASE_URL: "http://127.0.0.1:9/v1" }, { timings: { llmRetryBaseMs: 1 } });
    expect(env.status).toBe("ok");
    expect(env.errors).toEqual([{ code: "second_opinion_failed", message: expect.stringContaining("unreachable") }]);
  });

  test("with the run's deadline too near, the model is not asked and the run says so", async () => {
    // The deadline injected: 1.4 s left when the run starts. Minus the second pass's 1 s reserve, that is
    // under the half second a question needs however fast the run reaches its check, while the
    // planner and the writer, which read the same deadline, keep room on a loaded machine.
    const wrap = (e: Engine): Engine => ({ ...e, run: (q, ctx) => e.run(q, { ...ctx, deadline: Date.now() + 1_400 }) });
    const { env, verifying } = await ask({ VERIFY_BASE_URL: checker.base }, { wrap });
    expect(checker.calls).toEqual([]);
    expect(env.status).toBe("ok");
    expect(evidenceOf(env, UNBACKED).verdict).toBe(alone[1]!);
    expect(env.errors).toEqual([
      { code: "second_opinion_failed", message: expect.stringContaining("the run's deadline is too near") },
    ]);
    expect(verifying).toContain("the checking model was not asked");
  });

  test("a second pass that fails on its worker keeps the first pass's verdicts and says so", async () => {
    const env0 = {
      SEARXNG_URL: world.search.urls.searxng,
      ACADEMIC_PROVIDERS: "none",
      LOCAL_SEARCH: "off",
      FETCH_ALLOW_PRIVATE: "true",
      OPENAI_BASE_URL: world.chat.openaiBase,
    };
    const config = loadConfig({ PORT: "0", DATABASE_PATH: ":memory:", ...env0 }, "/nonexistent");
    // The first pass as the workers give it; the second, with the model's verdicts, crashes.
    const crashing: Verifier = async (input, signal) => {
      if (input.overrides?.length) throw new Error("the worker crashed");
      return inlineVerifier(input, signal);
    };
    const engine = createEngine({
      llm: buildLlm(config),
      search: buildSearchProviders(config),
      allowPrivate: true,
      verifier: crashing,
      secondOpinion: {
        model: createCheckingModel({ baseUrl: checker.base, model: "bespoke-minicheck" }),
        boundMs: 5_000,
      },
    });
    const s = startTestServer({ engine, env: env0 });
    try {
      const { key } = await keyedClient(s.url);
      const env = (await (await query(s.url, key, { query: QUESTION })).json()) as any;
      expect(checker.calls.length).toBe(2);
      expect(env.status).toBe("ok");
      expect([evidenceOf(env, BACKED).verdict, evidenceOf(env, UNBACKED).verdict]).toEqual(alone);
      expect(env.errors).toEqual([
        { code: "second_opinion_failed", message: expect.stringContaining("could not be applied: the worker crashed") },
      ]);
    } finally {
      await s.stop(100);
    }
  });
});
