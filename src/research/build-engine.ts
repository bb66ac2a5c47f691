import type { Config } from "../config/schema.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { Logger } from "../util/logger.ts";
import { createEngine } from "./engine/engine.ts";
import { resolveTimings, retryPolicy, type TimingsOverride } from "./engine/timings.ts";
import { buildLlm } from "./llm/factory.ts";
import { inlineParser } from "./read/doc-parser.ts";
import { createParsePool } from "./read/parse-pool.ts";
import { buildSearchProviders } from "./search/registry.ts";
import type { Engine } from "./types.ts";

/**
 * The research engine as the config describes it. `timings` overrides the engine's clocks
 * (tests shrink them); production passes none and gets DEFAULT_TIMINGS.
 */
export function buildEngine(cfg: Config, logger: Logger, metrics?: Metrics, timings?: TimingsOverride): Engine {
  const t = resolveTimings(timings);
  const llm = buildLlm(cfg, { retry: retryPolicy(t), attemptMs: t.llmAttemptMs });
  const search = buildSearchProviders(cfg, t.searchTimeoutMs);
  logger.info("engine", {
    llm: llm ? `${llm.client.provider}:${llm.model}` : "none (extractive answers)",
    web: search.web.map((p) => p.name),
    academic: search.academic.map((p) => p.name),
    allow_private: cfg.FETCH_ALLOW_PRIVATE,
  });
  // Parsing runs on worker threads so a big page or PDF never delays other streams' events;
  // it falls back to this thread if workers can't start.
  const parser = createParsePool(
    {
      jobTimeoutMs: t.parseJobMs,
      onParse: metrics ? (where, ok) => metrics.parses.inc({ where, outcome: ok ? "ok" : "error" }) : undefined,
    },
    inlineParser,
  );
  return createEngine({
    llm,
    search,
    allowPrivate: cfg.FETCH_ALLOW_PRIVATE,
    parser,
    timings: t,
    onUpstream: metrics ? (provider, outcome) => metrics.upstream.inc({ provider, outcome }) : undefined,
  });
}
