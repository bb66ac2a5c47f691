import type { Config } from "../../config/schema.ts";
import { createGroqClient } from "./groq.ts";
import { createOpenAiCompatibleClient } from "./openai-compatible.ts";
import type { RetryPolicy } from "./retry.ts";
import type { LlmClient } from "./types.ts";

export interface Llm { client: LlmClient; model: string; fastModel: string }

/** Groq when GROQ_API_KEY is set, else an OpenAI-compatible server, else none (extractive answers). */
export function buildLlm(cfg: Config, retry?: RetryPolicy): Llm | null {
  if (cfg.GROQ_API_KEY) return { client: createGroqClient({ apiKey: cfg.GROQ_API_KEY, baseUrl: cfg.GROQ_BASE_URL, retry }), model: cfg.LLM_MODEL, fastModel: cfg.LLM_FAST_MODEL };
  if (cfg.OPENAI_BASE_URL) return { client: createOpenAiCompatibleClient({ baseUrl: cfg.OPENAI_BASE_URL, apiKey: cfg.OPENAI_API_KEY, retry }), model: cfg.LLM_MODEL, fastModel: cfg.LLM_FAST_MODEL };
  return null;
}
