import Groq from "groq-sdk";
import { readChatStream, wholeAnswer } from "./chat-stream.ts";
import { LlmError, parseRetryAfter, upstreamError } from "./llm-error.ts";
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from "./retry.ts";
import { TokenWindows } from "./token-window.ts";
import type { ChatRequest, ChatResult, LlmClient } from "./types.ts";
import { cleanReason, upstreamReason } from "./upstream-message.ts";

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
const WHO = "Groq";

function toLlmError(e: unknown, signal: AbortSignal, apiKey: string): LlmError {
  if (signal.aborted) return new LlmError("aborted", "aborted");
  if (e instanceof LlmError) return e;
  if (e instanceof Groq.APIError && typeof e.status === "number")
    return upstreamError(
      WHO,
      e.status,
      upstreamReason(e.error, [apiKey]),
      parseRetryAfter(e.headers?.get("retry-after")) ?? undefined,
    );
  // Connection errors and timeouts (APIError without a status).
  return new LlmError("network", `the Groq call failed: ${cleanReason((e as Error)?.message ?? String(e), [apiKey])}`);
}

/**
 * Groq through groq-sdk, which sends the request and types HTTP errors; the stream is read
 * by our own reader (chat-stream.ts) so both providers hold answers to one rule, and the
 * SDK's own retries are off so both retry alike, through withRetry. Every answer's
 * rate-limit headers pace the next calls of its model (token-window.ts).
 */
export function createGroqClient(o: GroqOptions): LlmClient {
  const sdk = new Groq({
    apiKey: o.apiKey,
    baseURL: o.baseUrl,
    maxRetries: 0,
    timeout: o.timeoutMs ?? GROQ_ATTEMPT_MS,
  });
  const windows = new TokenWindows();
  const once = async (req: ChatRequest): Promise<ChatResult> => {
    const params = {
      model: req.model,
      messages: req.messages,
      temperature: req.temperature ?? 0.2,
      max_tokens: req.maxTokens,
    };
    const read = { who: WHO, maxTokens: req.maxTokens };
    try {
      if (!req.onDelta) {
        const { data, response } = await sdk.chat.completions
          .create({ ...params, stream: false }, { signal: req.signal })
          .withResponse();
        windows.note(req.model, response.headers);
        return { text: wholeAnswer(data as Parameters<typeof wholeAnswer>[0], read) };
      }
      const res = await sdk.chat.completions.create({ ...params, stream: true }, { signal: req.signal }).asResponse();
      windows.note(req.model, res.headers);
      if (!res.body) throw new LlmError("bad_payload", "Groq answered a stream without a body");
      const text = await readChatStream(res.body, req.onDelta, read);
      return { text };
    } catch (e) {
      if (e instanceof Groq.APIError) windows.note(req.model, e.headers);
      throw toLlmError(e, req.signal, o.apiKey);
    }
  };
  return { provider: "groq", chat: (req) => withRetry(req, o.retry ?? DEFAULT_RETRY, once, windows) };
}
