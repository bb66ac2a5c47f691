import { LlmError, parseRetryAfter } from "./llm-error.ts";
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from "./retry.ts";
import type { ChatRequest, LlmClient } from "./types.ts";

interface Chunk { choices?: { delta?: { content?: string | null }; message?: { content?: string | null } }[] }

/** Reads `data:` lines of an SSE body until [DONE]. */
async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const dec = new TextDecoder();
  let buf = "";
  for await (const part of body) {
    buf += dec.decode(part, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data === "[DONE]") return;
      if (data) yield data;
    }
  }
}

/** Any OpenAI-compatible chat server (Ollama, vLLM, llama.cpp): POST {baseUrl}/chat/completions. */
export function createOpenAiCompatibleClient(o: { baseUrl: string; apiKey?: string; retry?: RetryPolicy; timeoutMs?: number }): LlmClient {
  const url = `${o.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const once = async (req: ChatRequest) => {
    const signal = AbortSignal.any([req.signal, AbortSignal.timeout(o.timeoutMs ?? 180_000)]);
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST", signal,
        headers: { "content-type": "application/json", ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
        body: JSON.stringify({ model: req.model, messages: req.messages, temperature: req.temperature ?? 0.2, max_tokens: req.maxTokens, stream: !!req.onDelta }),
      });
    } catch (e) {
      throw req.signal.aborted ? new LlmError("aborted", "aborted") : new LlmError("network", `LLM server unreachable: ${(e as Error).message}`);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new LlmError("http_status", `LLM server answered HTTP ${res.status}`, res.status, parseRetryAfter(res.headers.get("retry-after")) ?? undefined);
    }
    try {
      if (!req.onDelta) {
        const body = (await res.json()) as Chunk;
        const text = body.choices?.[0]?.message?.content;
        if (typeof text !== "string") throw new LlmError("bad_payload", "the LLM server answered without message content");
        return { text };
      }
      let text = "";
      for await (const data of sseData(res.body!)) {
        let chunk: Chunk;
        try { chunk = JSON.parse(data) as Chunk; } catch { continue; }
        const d = chunk.choices?.[0]?.delta?.content;
        if (d) { text += d; req.onDelta(d); }
      }
      return { text };
    } catch (e) {
      if (e instanceof LlmError) throw e;
      throw req.signal.aborted ? new LlmError("aborted", "aborted") : new LlmError("network", `the LLM stream broke: ${(e as Error).message}`);
    }
  };
  return { provider: "openai", chat: (req) => withRetry(req, o.retry ?? DEFAULT_RETRY, once) };
}
