import { AppError } from "../contract/errors.ts";
import { readRequestBody } from "../http/request-body.ts";
import { checkQuestion } from "../runs/http/query-body.ts";
import { withEarlierTurns } from "./follow-up.ts";

/**
 * A chat client sends the whole conversation on every turn, so the body may be far larger
 * than a question. Threats: a body that never ends (memory) and one sent a byte at a time
 * (a held connection).
 */
const MAX_CHAT_BODY_BYTES = 4 * 1024 * 1024;

/** What a chat completion request asks of a run. */
export interface ChatRequest {
  question: string;
  stream: boolean;
  /** `stream_options.include_usage`: a last chunk with `usage` and no choices. */
  includeUsage: boolean;
}

const bad = (message: string) => new AppError("invalid_request", message);

/** A message's text: a string, or the text parts of an array (images and files are not read). */
function textOf(content: unknown, at: string): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .filter((p): p is { type: "text"; text: string } => p?.type === "text" && typeof p.text === "string")
      .map((p) => p.text)
      .join("\n");
  throw bad(`${at}.content must be a string or an array of content parts`);
}

/** Each earlier user message that could be a question itself (others are skipped: only the last is the caller's to fix). */
function earlierUserTurns(messages: unknown[]): string[] {
  const turns: string[] = [];
  for (const m of messages.slice(0, -1) as ({ role?: unknown; content?: unknown } | null)[]) {
    if (m?.role !== "user") continue;
    try {
      turns.push(checkQuestion(textOf(m.content, "").trim(), "content"));
    } catch {}
  }
  return turns;
}

/**
 * The question is the last message, which must be the user's, preceded by the earlier user
 * messages it follows up on; answers, the system message and `model` are not read
 * (docs/decisions/0174-the-question-of-a-chat.md).
 */
export function chatRequest(body: unknown): ChatRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw bad('the request body must be a JSON object with "messages"');
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.messages) || b.messages.length === 0)
    throw bad("messages must be a non-empty array of {role, content}");
  if (b.stream !== undefined && b.stream !== null && typeof b.stream !== "boolean")
    throw bad("stream must be true or false");
  const at = `messages[${b.messages.length - 1}]`;
  const last = b.messages.at(-1) as { role?: unknown; content?: unknown } | null;
  if (typeof last !== "object" || last === null) throw bad(`${at} must be an object {role, content}`);
  if (last.role !== "user")
    throw bad(
      `${at} has role ${JSON.stringify(last.role)}: the last message must be the user's question (a system message is never researched)`,
    );
  const options = b.stream_options as { include_usage?: unknown } | undefined;
  return {
    question: withEarlierTurns([
      ...earlierUserTurns(b.messages),
      checkQuestion(textOf(last.content, at).trim(), `${at}.content`),
    ]),
    stream: b.stream === true,
    includeUsage: options?.include_usage === true,
  };
}

/** The body as JSON, at most MAX_CHAT_BODY_BYTES and within the API's body timeout; throws invalid_request. */
export async function readChatBody(request: Request): Promise<unknown> {
  const text = await readRequestBody(request, undefined, MAX_CHAT_BODY_BYTES);
  try {
    return JSON.parse(text);
  } catch {
    throw bad("the request body is not valid JSON");
  }
}
