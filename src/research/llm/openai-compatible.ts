import { readBodyPrefix } from "../../util/upstream-text.ts";
import { readChatStream, wholeAnswer } from "./chat-stream.ts";
import { LlmError, parseRetryAfter, upstreamError } from "./llm-error.ts";
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from "./retry.ts";
import { TokenWindows } from "./token-window.ts";
import type { ChatRequest, ChatResult, LlmClient } from "./types.ts";
import { cleanReason, upstreamReason } from "./upstream-message.ts";

/** Settings of an OpenAI-compatible server. */
export interface OpenAiCompatibleOptions {
  /** Address up to and including the version, e.g. http://localhost:11434/v1. */
  baseUrl: string;
  apiKey?: string;
  retry?: RetryPolicy;
  /** Ceiling of one attempt; default OPENAI_ATTEMPT_MS. */
  timeoutMs?: number;
  /** The server as its errors name it; default "the LLM server". */
  who?: string;
}

/** Local models can be slow: three minutes for one attempt. */
export const OPENAI_ATTEMPT_MS = 180_000;
const WHO = "the LLM server";
/** What an error answer says, from the first 16 KB of its body (our key masked if echoed). */
const errorReason = (res: Response, sent: string[]): Promise<string | null> =>
  readBodyPrefix(res).then(
    (body) => upstreamReason(body, sent),
    () => null,
  );

/** Any OpenAI-compatible chat server (Ollama, vLLM, llama.cpp): POST {baseUrl}/chat/completions. */
export function createOpenAiCompatibleClient(o: OpenAiCompatibleOptions): LlmClient {
  const url = `${o.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  // Hosted OpenAI-compatible APIs send rate-limit headers; local servers don't and are never paced.
  const windows = new TokenWindows();
  const who = o.who ?? WHO;
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
        : new LlmError(
            "network",
            `${o.who ? `${o.who} is` : "LLM server"} unreachable: ${cleanReason((e as Error).message)}`,
          );
    }
    windows.note(req.model, res.headers);
    if (!res.ok)
      throw upstreamError(
        who,
        res.status,
        await errorReason(res, o.apiKey ? [o.apiKey] : []),
        parseRetryAfter(res.headers.get("retry-after")) ?? undefined,
      );
    const read = { who, maxTokens: req.maxTokens };
    try {
      // Some servers ignore stream:true and answer with one JSON body; take it as one delta.
      if (!req.onDelta || !res.body || /application\/json/i.test(res.headers.get("content-type") ?? "")) {
        const text = wholeAnswer(await res.json(), read);
        req.onDelta?.(text);
        return { text };
      }
      return { text: await readChatStream(res.body, req.onDelta, read) };
    } catch (e) {
      if (req.signal.aborted) throw new LlmError("aborted", "aborted");
      if (e instanceof LlmError) throw e;
      throw new LlmError(
        "network",
        `${o.who ? `${o.who}'s answer` : "the LLM stream"} broke: ${cleanReason((e as Error).message)}`,
      );
    }
  };
  return { provider: "openai", chat: (req) => withRetry(req, o.retry ?? DEFAULT_RETRY, once, windows) };
}
