import type { Envelope } from "../contract/envelope.ts";
import { answerContent, chatUsage, urlCitations } from "./answer-content.ts";

/** The one model the front offers; `model` in a request is accepted and not read. */
const MODEL_ID = "research-query";

/** `GET /v1/models`: one model, created when this front started. */
export function modelList(created: number) {
  return { object: "list", data: [{ id: MODEL_ID, object: "model", created, owned_by: MODEL_ID }] };
}

/** The names a completion and its chunks share: one id per run, named after the run's request id. */
export interface CompletionIds {
  id: string;
  created: number;
}

export const completionIds = (requestId: string): CompletionIds => ({
  id: `chatcmpl-${requestId}`,
  created: Math.floor(Date.now() / 1000),
});

/** A completed run as OpenAI's `chat.completion` (a non-streamed answer). */
export function chatCompletion(env: Envelope, ids: CompletionIds) {
  return {
    id: ids.id,
    object: "chat.completion",
    created: ids.created,
    model: MODEL_ID,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: answerContent(env), refusal: null, annotations: urlCitations(env) },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: chatUsage(env),
  };
}

type Delta = { role?: "assistant"; content?: string; reasoning_content?: string; annotations?: unknown[] };

/** One `chat.completion.chunk`, framed as the server-sent event OpenAI sends. */
export function chunkEvent(ids: CompletionIds, delta: Delta, finish: "stop" | null = null): string {
  const chunk = {
    id: ids.id,
    object: "chat.completion.chunk",
    created: ids.created,
    model: MODEL_ID,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/**
 * The end of a streamed answer: the answer's content, then its citations with `stop`, the usage
 * chunk a client asked for with `stream_options.include_usage`, and `[DONE]`.
 */
export function answerEvents(env: Envelope, ids: CompletionIds, includeUsage: boolean): string {
  const usage = includeUsage
    ? `data: ${JSON.stringify({ id: ids.id, object: "chat.completion.chunk", created: ids.created, model: MODEL_ID, choices: [], usage: chatUsage(env) })}\n\n`
    : "";
  return (
    chunkEvent(ids, { content: answerContent(env) }) +
    chunkEvent(ids, { annotations: urlCitations(env) }, "stop") +
    usage +
    "data: [DONE]\n\n"
  );
}

/** A failure after the stream began: the body the official SDK raises as an `APIError`. */
export const errorEvent = (body: object): string => `data: ${JSON.stringify(body)}\n\n`;
