import { LlmError, upstreamError } from "./llm-error.ts";
import { sseEvents } from "./sse-events.ts";
import { statusInside, upstreamReason } from "./upstream-message.ts";

interface Choice {
  delta?: { content?: string | null };
  message?: { content?: string | null };
  finish_reason?: string | null;
}

interface Chunk {
  choices?: Choice[];
  error?: unknown;
}

/** What a streamed or whole answer needs to be taken as finished. */
export interface ReadOptions {
  /** Provider name for messages ("Groq", "the LLM server"). */
  who: string;
  /** The max_tokens asked, named when the model stops at it. */
  maxTokens?: number;
}

// Hugging Face TGI names the same natural end by its cause; everything else is a cut.
const NATURAL_END = new Set(["stop", "eos_token", "stop_sequence"]);

/**
 * An answer is whole only when the model said it stopped on its own (finish_reason
 * "stop", or TGI's names for it). "length" is the output limit reached — a reasoning
 * model can spend it all thinking — and is final: the same call would stop at the same place.
 */
export function checkFinish(finish: string | null | undefined, text: string, o: ReadOptions): void {
  if (finish && NATURAL_END.has(finish)) return;
  if (finish === "length")
    throw new LlmError(
      "incomplete",
      `${o.who} stopped at its output limit${o.maxTokens ? ` (max_tokens ${o.maxTokens})` : ""} before finishing${text.trim() ? " the answer" : ": it spent the whole budget reasoning"}`,
      { retryable: false },
    );
  if (finish)
    throw new LlmError("incomplete", `${o.who} ended the answer with finish_reason "${finish}"`, { retryable: false });
  throw new LlmError("incomplete", `${o.who} closed the stream before the answer finished (no finish_reason)`);
}

/** An error an upstream put inside a 200 stream ({"error": …} data, `event: error`, llama.cpp's `error:` line). */
function streamFailure(who: string, data: string): LlmError {
  let body: unknown = data;
  try {
    body = JSON.parse(data);
  } catch {}
  return upstreamError(`${who}'s stream`, statusInside(body), upstreamReason(body) ?? "unknown error");
}

/**
 * Reads a chat-completions SSE body: passes each content delta to `onDelta` (reasoning
 * deltas, `reasoning` / `reasoning_content`, are never shown), and returns the text once the
 * stream has finished on its own (checkFinish). A stream cut early, an error inside it or
 * any other finish throws.
 */
export async function readChatStream(
  body: ReadableStream<Uint8Array>,
  onDelta: (text: string) => void,
  o: ReadOptions,
): Promise<string> {
  let text = "";
  let finish: string | null = null;
  for await (const ev of sseEvents(body)) {
    if (ev.event === "error") throw streamFailure(o.who, ev.data);
    if (ev.data.trim() === "[DONE]") break;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(ev.data) as Chunk;
    } catch {
      throw new LlmError("bad_payload", `${o.who} sent a stream chunk that is not JSON`, { retryable: true });
    }
    if (chunk.error !== undefined && chunk.error !== null) throw streamFailure(o.who, ev.data);
    const c = chunk.choices?.[0];
    const d = c?.delta?.content;
    if (d) {
      text += d;
      onDelta(d);
    }
    if (c?.finish_reason) finish = c.finish_reason;
  }
  checkFinish(finish, text, o);
  return text;
}

/** A non-streamed answer's text, held to the same rule: content present and finish_reason "stop" (or none said). */
export function wholeAnswer(body: Chunk, o: ReadOptions): string {
  const c = body.choices?.[0];
  const text = c?.message?.content;
  if (typeof text !== "string") {
    const why = body.error !== undefined ? upstreamReason(body) : null;
    throw new LlmError("bad_payload", `${o.who} answered without message content${why ? `: ${why}` : ""}`);
  }
  // Some servers leave finish_reason out of whole answers; only a stated cut is a failure.
  if (c?.finish_reason) checkFinish(c.finish_reason, text, o);
  return text;
}
