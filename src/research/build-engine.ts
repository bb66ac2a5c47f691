import type { Config } from "../config/schema.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { Logger } from "../util/logger.ts";
import { createEngine } from "./engine/engine.ts";
import { buildLlm } from "./llm/factory.ts";
import { buildSearchProviders } from "./search/registry.ts";
import type { Engine } from "./types.ts";

/** The research engine as the config describes it. */
export function buildEngine(cfg: Config, logger: Logger, metrics?: Metrics): Engine {
  const llm = buildLlm(cfg);
  const search = buildSearchProviders(cfg);
  logger.info("engine", {
    llm: llm ? `${llm.client.provider}:${llm.model}` : "none (extractive answers)",
    web: search.web.map((p) => p.name), academic: search.academic.map((p) => p.name), allow_private: cfg.FETCH_ALLOW_PRIVATE,
  });
  return createEngine({
    llm, search, allowPrivate: cfg.FETCH_ALLOW_PRIVATE,
    onUpstream: metrics ? (provider, outcome) => metrics.upstream.inc({ provider, outcome }) : undefined,
  });
}
