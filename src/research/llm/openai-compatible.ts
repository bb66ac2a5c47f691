import { LlmError, parseRetryAfter } from "./llm-error.ts";
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from "./retry.ts";
import { sseData } from "./sse-data.ts";
import type { ChatRequest, ChatResult, LlmClient } from "./types.ts";

interface Chunk {
  choices?: { delta?: { content?: string | null }; message?: { content?: string | null } }[];
  error?: { message?: string } | string;
}

/** Settings of an OpenAI-compatible server. */
export interface OpenAiCompatibleOptions {
  /** Address up to and including the version, e.g. http://localhost:11434/v1. */
  baseUrl: string;
  apiKey?: string;
  retry?: RetryPolicy;
  /** Ceiling of one attempt; default OPENAI_ATTEMPT_MS. */
  timeoutMs?: number;
}

/** Local models can be slow: three minutes for one attempt. */
export const OPENAI_ATTEMPT_MS = 180_000;

// Servers report a failure inside a 200 stream as {"error": …}; that is a failed call.
const errorOf = (c: Chunk): string | null =>
  c.error === undefined ? null : typeof c.error === "string" ? c.error : (c.error.message ?? "unknown error");

/** Any OpenAI-compatible chat server (Ollama, vLLM, llama.cpp): POST {baseUrl}/chat/completions. */
export function createOpenAiCompatibleClient(o: OpenAiCompatibleOptions): LlmClient {
  const url = `${o.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const once = async (req: ChatRequest): Promise<ChatResult> => {
    const signal = AbortSignal.any([req.signal, AbortSignal.timeout(o.timeoutMs ?? OPENAI_ATTEMPT_MS)]);
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        signal,
        headers: {
          "content-type": "application/json",
          accept: req.onDelta ? "text/event-stream" : "application/json",
          ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: req.model,
          messages: req.messages,
          temperature: req.temperature ?? 0.2,
          max_tokens: req.maxTokens,
          stream: !!req.onDelta,
        }),
      });
    } catch (e) {
      throw req.signal.aborted
        ? new LlmError("aborted", "aborted")
        : new LlmError("network", `LLM server unreachable: ${(e as Error).message}`);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new LlmError(
        "http_status",
        `LLM server answered HTTP ${res.status}`,
        res.status,
        parseRetryAfter(res.headers.get("retry-after")) ?? undefined,
      );
    }
    try {
      // Some servers ignore stream:true and answer with one JSON body; take it as one delta.
      if (!req.onDelta || !res.body || /application\/json/i.test(res.headers.get("content-type") ?? "")) {
        const body = (await res.json()) as Chunk;
        const text = body.choices?.[0]?.message?.content;
        if (typeof text !== "string")
          throw new LlmError(
            "bad_payload",
            `the LLM server answered without message content${errorOf(body) ? `: ${errorOf(body)}` : ""}`,
          );
        req.onDelta?.(text);
        return { text };
      }
      let text = "";
      for await (const data of sseData(res.body)) {
        let chunk: Chunk;
        try {
          chunk = JSON.parse(data) as Chunk;
        } catch {
          continue;
        }
        const failure = errorOf(chunk);
        if (failure !== null) throw new LlmError("network", `the LLM stream failed: ${failure}`);
        const d = chunk.choices?.[0]?.delta?.content;
        if (d) {
          text += d;
          req.onDelta(d);
        }
      }
      if (req.signal.aborted) throw new LlmError("aborted", "aborted");
      return { text };
    } catch (e) {
      if (req.signal.aborted) throw new LlmError("aborted", "aborted");
      if (e instanceof LlmError) throw e;
      throw new LlmError("network", `the LLM stream broke: ${(e as Error).message}`);
    }
  };
  return { provider: "openai", chat: (req) => withRetry(req, o.retry ?? DEFAULT_RETRY, once) };
}
