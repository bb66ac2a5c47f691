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

/** Whether a model writes the answers (buildLlm finds one); otherwise they are extractive. */
export function hasLlm(cfg: Pick<Config, "GROQ_API_KEY" | "OPENAI_BASE_URL">): boolean {
  return Boolean(cfg.GROQ_API_KEY || cfg.OPENAI_BASE_URL);
}

/** Groq when GROQ_API_KEY is set, else an OpenAI-compatible server, else none (extractive answers). */
export function buildLlm(cfg: Config, t: LlmTiming = {}): Llm | null {
  let client: LlmClient | null = null;
  if (cfg.GROQ_API_KEY) {
    client = createGroqClient({
      apiKey: cfg.GROQ_API_KEY,
      baseUrl: cfg.GROQ_BASE_URL,
      retry: t.retry,
      timeoutMs: t.attemptMs?.groq,
    });
  } else if (cfg.OPENAI_BASE_URL) {
    client = createOpenAiCompatibleClient({
      baseUrl: cfg.OPENAI_BASE_URL,
      apiKey: cfg.OPENAI_API_KEY,
      retry: t.retry,
      timeoutMs: t.attemptMs?.openai,
    });
  }
  return client && { client, model: cfg.LLM_MODEL, fastModel: cfg.LLM_FAST_MODEL };
}
