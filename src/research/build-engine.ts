import type { Config } from "../config/schema.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";
import { createEngine } from "./engine/engine.ts";
import type { SecondOpinion } from "./engine/second-opinion.ts";
import { type EngineTimings, resolveTimings, retryPolicy, type TimingsOverride } from "./engine/timings.ts";
import { createCheckingModel } from "./llm/checking-model.ts";
import { buildLlm } from "./llm/factory.ts";
import type { LlmError } from "./llm/llm-error.ts";
import type { RetryPolicy } from "./llm/retry.ts";
import { inlineParser } from "./read/doc-parser.ts";
import { createParsePool } from "./read/parse-pool.ts";
import { buildSearchProviders } from "./search/registry.ts";
import type { Engine } from "./types.ts";

/**
 * The research engine as the config describes it. `timings` overrides the engine's clocks
 * (tests shrink them); production passes none and gets DEFAULT_TIMINGS. `store` holds the
 * collections the `local` provider searches (none: runs search no collection).
 */
export function buildEngine(
  cfg: Config,
  logger: Logger,
  metrics?: Metrics,
  timings?: TimingsOverride,
  store?: Store,
): Engine {
  const t = resolveTimings(timings);
  // The upstream's own reason, so an operator tells a per-minute cap from a daily one from a too-large request.
  const retry: RetryPolicy = {
    ...retryPolicy(t),
    onRetry: ({ attempt, delayMs, error }) =>
      logger.warn("llm_retry", { attempt, delay_ms: delayMs, status: error.status, error: error.message }),
    onGiveUp: (e: LlmError) => logger.warn("llm_call_failed", { reason: e.reason, status: e.status, error: e.message }),
  };

  const llm = buildLlm(cfg, { retry, attemptMs: t.llmAttemptMs });
  const secondOpinion = buildSecondOpinion(cfg, t);
  const search = buildSearchProviders(cfg, t.searchTimeoutMs, store, { recheckMs: t.academicRecheckMs });
  logger.info("engine", {
    llm: llm ? `${llm.client.provider}:${llm.model}` : "none (extractive answers)",
    web: search.web.map((p) => p.name),
    academic: search.academic.map((p) => p.name),
    local: search.local ? (search.localOnly ? "only" : "when collections hold documents") : "off",
    allow_private: cfg.FETCH_ALLOW_PRIVATE,
    verify: secondOpinion ? secondOpinion.model.model : "none (the check alone)",
  });
  // Parsing runs on worker threads so a big page or PDF never delays other streams' events;
  // it falls back to this thread if workers can't start.
  const parser = createParsePool(
    {
      jobTimeoutMs: t.parseJobMs,
      memoryLimit: cfg.PARSE_MEMORY_MB * 1048576,
      onParse: metrics ? (where, ok) => metrics.parses.inc({ where, outcome: ok ? "ok" : "error" }) : undefined,
    },
    inlineParser,
  );
  return createEngine({
    llm,
    tokenBudget: cfg.LLM_TOKEN_BUDGET,
    search,
    allowPrivate: cfg.FETCH_ALLOW_PRIVATE,
    parser,
    // The ranking and the claim check go to the same workers
    // (docs/decisions/0115-passage-work-off-the-server-thread.md).
    ranker: parser.rank,
    verifier: parser.verify,
    secondOpinion,
    timings: t,
    onUpstream: metrics ? (provider, outcome) => metrics.upstream.inc({ provider, outcome }) : undefined,
  });
}

/**
 * The checking model of VERIFY_BASE_URL, or none. One retry at most, and only a wait that
 * fits the run's bound for it: a second opinion is worth a second, never a minute.
 */
function buildSecondOpinion(cfg: Config, t: EngineTimings): SecondOpinion | undefined {
  if (!cfg.VERIFY_BASE_URL) return undefined;
  const model = createCheckingModel({
    baseUrl: cfg.VERIFY_BASE_URL,
    model: cfg.VERIFY_MODEL,
    apiKey: cfg.VERIFY_API_KEY,
    attemptMs: t.secondOpinionMs,
    retry: { retries: 1, baseDelayMs: t.llmRetryBaseMs, maxDelayMs: 1_000, maxRetryAfterMs: t.secondOpinionMs },
  });
  return { model, boundMs: t.secondOpinionMs };
}
