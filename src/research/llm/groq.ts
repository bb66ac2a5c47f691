import Groq from "groq-sdk";
import { LlmError, parseRetryAfter } from "./llm-error.ts";
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from "./retry.ts";
import type { ChatRequest, ChatResult, LlmClient } from "./types.ts";

/** Settings of the Groq client. */
export interface GroqOptions {
  apiKey: string;
  /** Groq's address (groq-sdk appends /openai/v1/chat/completions); the SDK default when unset. */
  baseUrl?: string;
  retry?: RetryPolicy;
  /** Ceiling of one attempt; default GROQ_ATTEMPT_MS. */
  timeoutMs?: number;
}

export const GROQ_ATTEMPT_MS = 120_000;

function toLlmError(e: unknown, signal: AbortSignal): LlmError {
  if (signal.aborted) return new LlmError("aborted", "aborted");
  if (e instanceof LlmError) return e;
  if (e instanceof Groq.APIError && typeof e.status === "number") {
    return new LlmError(
      "http_status",
      `Groq answered HTTP ${e.status}`,
      e.status,
      parseRetryAfter(e.headers?.get("retry-after")) ?? undefined,
    );
  }
  // Connection errors, timeouts and in-stream {"error": …} events (APIError without status).
  return new LlmError("network", `the Groq call failed: ${(e as Error)?.message ?? String(e)}`);
}

/**
 * Groq through groq-sdk; the SDK's own retries are off so both providers retry alike,
 * through withRetry.
 */
export function createGroqClient(o: GroqOptions): LlmClient {
  const sdk = new Groq({
    apiKey: o.apiKey,
    baseURL: o.baseUrl,
    maxRetries: 0,
    timeout: o.timeoutMs ?? GROQ_ATTEMPT_MS,
  });
  const once = async (req: ChatRequest): Promise<ChatResult> => {
    const params = {
      model: req.model,
      messages: req.messages,
      temperature: req.temperature ?? 0.2,
      max_tokens: req.maxTokens,
    };
    try {
      if (!req.onDelta) {
        const r = await sdk.chat.completions.create({ ...params, stream: false }, { signal: req.signal });
        const text = r.choices[0]?.message?.content;
        if (typeof text !== "string") throw new LlmError("bad_payload", "Groq answered without message content");
        return { text };
      }
      const stream = await sdk.chat.completions.create({ ...params, stream: true }, { signal: req.signal });
      let text = "";
      for await (const chunk of stream) {
        const d = chunk.choices[0]?.delta?.content;
        if (d) {
          text += d;
          req.onDelta(d);
        }
      }
      // groq-sdk ends an aborted stream quietly; a cut-off answer must not pass as whole.
      if (req.signal.aborted) throw new LlmError("aborted", "aborted");
      return { text };
    } catch (e) {
      throw toLlmError(e, req.signal);
    }
  };
  return { provider: "groq", chat: (req) => withRetry(req, o.retry ?? DEFAULT_RETRY, once) };
}
