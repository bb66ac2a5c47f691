import Groq from "groq-sdk";
import { LlmError, parseRetryAfter } from "./llm-error.ts";
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from "./retry.ts";
import type { ChatRequest, LlmClient } from "./types.ts";

function toLlmError(e: unknown, signal: AbortSignal): LlmError {
  if (signal.aborted) return new LlmError("aborted", "aborted");
  if (e instanceof Groq.APIError && typeof e.status === "number") {
    const h = e.headers as unknown as Headers | Record<string, string> | undefined;
    const ra = h instanceof Headers ? h.get("retry-after") : h?.["retry-after"];
    return new LlmError("http_status", `Groq answered HTTP ${e.status}`, e.status, parseRetryAfter(ra) ?? undefined);
  }
  return new LlmError("network", `Groq unreachable: ${(e as Error)?.message ?? e}`);
}

/** Groq through groq-sdk; the SDK's own retries are off so both providers retry alike. */
export function createGroqClient(o: { apiKey: string; baseUrl?: string; retry?: RetryPolicy; timeoutMs?: number }): LlmClient {
  const sdk = new Groq({ apiKey: o.apiKey, baseURL: o.baseUrl, maxRetries: 0, timeout: o.timeoutMs ?? 120_000 });
  const once = async (req: ChatRequest) => {
    const params = { model: req.model, messages: req.messages, temperature: req.temperature ?? 0.2, max_tokens: req.maxTokens };
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
        if (d) { text += d; req.onDelta(d); }
      }
      return { text };
    } catch (e) {
      throw e instanceof LlmError ? e : toLlmError(e, req.signal);
    }
  };
  return { provider: "groq", chat: (req) => withRetry(req, o.retry ?? DEFAULT_RETRY, once) };
}
