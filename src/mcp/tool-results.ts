import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Envelope } from "../contract/envelope.ts";
import { isAppError } from "../contract/errors.ts";
import type { ExtractResult } from "../contract/mcp.ts";
import { FetchError } from "../research/read/fetch-error.ts";
import { answerText, errorsText } from "../runs/answer-text.ts";

/**
 * A run's envelope as a tool result: the answer and its sources as text, the envelope as
 * structured content. A run that failed (or was refused: quota_exceeded, invalid_api_key…)
 * is `isError` with its codes and messages as the text, so the model sees why, and the
 * backend's `note` after them (what it lacks that could have answered).
 */
export function researchResult(env: Envelope, note?: string): CallToolResult {
  const ok = env.status === "ok";
  return {
    content: [{ type: "text", text: ok ? answerText(env) : `${errorsText(env)}${note ? `\n\n${note}` : ""}` }],
    structuredContent: env as unknown as Record<string, unknown>,
    ...(ok ? {} : { isError: true }),
  };
}

export function extractResult(doc: ExtractResult): CallToolResult {
  return {
    content: [{ type: "text", text: `${doc.title ? `# ${doc.title}\n\n` : ""}${doc.text}` }],
    structuredContent: { ...doc },
  };
}

/**
 * A failure with no envelope behind it (a bad argument, a server out of reach, a page that
 * cannot be read) as `code: message`. Anything else is a bug of ours: its text stays in the
 * log, the client gets internal_error.
 */
export function failureResult(e: unknown, log: (msg: string, fields: Record<string, unknown>) => void): CallToolResult {
  let text: string;
  if (isAppError(e)) text = `${e.code}: ${e.message}`;
  else if (e instanceof FetchError) text = `${e.reason}: ${e.message}`;
  else {
    log("mcp_tool_error", { error: String(e) });
    text = "internal_error: the tool failed unexpectedly; the server's log (stderr) has the details";
  }
  return { content: [{ type: "text", text }], isError: true };
}
