import type { Config } from "../config/schema.ts";
import type { Logger } from "../util/logger.ts";
import { hasLlm } from "./llm/factory.ts";
import { NEXT_STEPS } from "./search/next-steps.ts";
import { webSearchConfigured } from "./search/registry.ts";
import type { Engine } from "./types.ts";

/**
 * What a new operator has not configured yet, as warnings at start, each with the variable
 * that fixes it and what the server does meanwhile: no web search provider, no model, and
 * (after one probe) academic databases this machine cannot reach. An "info" line listing
 * `"web":[]` was read past (docs/decisions/0143-start-warnings-name-what-is-missing.md).
 * Resolves once the probe has answered; the server serves meanwhile.
 */
export async function warnSetup(cfg: Config, engine: Engine, logger: Logger): Promise<void> {
  if (cfg.LOCAL_SEARCH !== "only" && !webSearchConfigured(cfg))
    logger.warn("no_web_search", {
      fix: "set SEARXNG_URL (a SearXNG you run), BRAVE_API_KEY or TAVILY_API_KEY",
      meanwhile: "questions search the academic databases and the collections only",
    });
  if (!hasLlm(cfg))
    logger.warn("no_llm", {
      fix: "set GROQ_API_KEY, or OPENAI_BASE_URL (with OPENAI_API_KEY and LLM_MODEL) for an OpenAI-compatible server",
      meanwhile: "answers are extractive: sentences quoted from the sources",
    });
  const reach = await engine.probe?.();
  if (reach && !reach.reachable)
    logger.warn("academic_unreachable", {
      databases: reach.failures,
      fix: NEXT_STEPS.network,
      meanwhile:
        "a question nothing else can search is refused (search_unavailable) and not charged; the databases are probed again before the next one",
    });
}
