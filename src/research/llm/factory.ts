import type { Config } from "../../config/schema.ts";
import { createGroqClient } from "./groq.ts";
import { createOpenAiCompatibleClient } from "./openai-compatible.ts";
import type { RetryPolicy } from "./retry.ts";
import type { LlmClient } from "./types.ts";

export interface Llm {
  client: LlmClient;
  model: string;
  fastModel: string;
}

/** How the clients retry, and each provider's ceiling of one attempt; unset: the clients' defaults. */
export interface LlmTiming {
  retry?: RetryPolicy;
  attemptMs?: { openai?: number; groq?: number };
}

/** Groq when GROQ_API_KEY is set, else an OpenAI-compatible server, else none (extractive answers). */
export function buildLlm(cfg: Config, t: LlmTiming = {}): Llm | null {
  if (cfg.GROQ_API_KEY)
    return {
      client: createGroqClient({
        apiKey: cfg.GROQ_API_KEY,
        baseUrl: cfg.GROQ_BASE_URL,
        retry: t.retry,
        timeoutMs: t.attemptMs?.groq,
      }),
      model: cfg.LLM_MODEL,
      fastModel: cfg.LLM_FAST_MODEL,
    };
  if (cfg.OPENAI_BASE_URL)
    return {
      client: createOpenAiCompatibleClient({
        baseUrl: cfg.OPENAI_BASE_URL,
        apiKey: cfg.OPENAI_API_KEY,
        retry: t.retry,
        timeoutMs: t.attemptMs?.openai,
      }),
      model: cfg.LLM_MODEL,
      fastModel: cfg.LLM_FAST_MODEL,
    };
  return null;
}
