import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { checkQuestion } from "../runs/http/query-body.ts";
import type { McpBackend } from "./backend.ts";
import type { ToolContext } from "./tool.ts";
import { researchResult } from "./tool-results.ts";

/** Between a call's last progress notification and its result (see below). */
const PROGRESS_SETTLE_MS = 20;

/** The `research` tool: one run on the backend, its progress passed on to a client that asked. */
export async function callResearch(question: string, backend: McpBackend, ctx: ToolContext): Promise<CallToolResult> {
  const checked = checkQuestion(question, "question");
  const token = ctx.progressToken;
  let progress = 0;
  // Notifications go out in order and all before the result: a client drops progress
  // for a call it has already been answered.
  let sent = Promise.resolve();
  const env = await backend.research(checked, {
    signal: ctx.signal,
    onProgress: (p) => {
      if (token === undefined) return;
      const params = { progressToken: token, progress: ++progress, message: `${p.stage}: ${p.message}` };
      sent = sent.then(() => ctx.notify({ method: "notifications/progress", params })).catch(() => {});
    },
  });
  await sent;
  // The SDK's client handles a notification a microtask after the line that carried it
  // but a response at once: read in one chunk, the response would end the call and its
  // last progress would arrive "for an unknown token". A pause lets them travel apart.
  if (progress) await Bun.sleep(PROGRESS_SETTLE_MS);
  return researchResult(env, backend.note);
}
