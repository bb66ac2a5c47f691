import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../contract/errors.ts";
import {
  EXTRACT_TOOL,
  type ExtractArgs,
  ExtractArgsSchema,
  ExtractResultSchema,
  RESEARCH_TOOL,
  type ResearchArgs,
  ResearchArgsSchema,
  ResearchResultSchema,
} from "../contract/mcp.ts";
import { checkQuestion } from "../runs/query-body.ts";
import type { Logger } from "../util/logger.ts";
import type { McpBackend } from "./backend.ts";
import { extractResult, failureResult, researchResult } from "./tool-results.ts";

/** Between a call's last progress notification and its result (see the handler). */
const PROGRESS_SETTLE_MS = 20;

// TypeBox schemas are JSON Schema; the copy drops TypeBox's symbol keys.
const jsonSchema = (s: object) => JSON.parse(JSON.stringify(s)) as Tool["inputSchema"];

function toolList(backend: McpBackend): Tool[] {
  const where =
    backend.mode === "local"
      ? "on this machine (the web, academic databases and the collections configured here)"
      : "on the research-query server this MCP server was started with; each call uses one run of the account's monthly allowance";
  const tools: Tool[] = [
    {
      name: RESEARCH_TOOL,
      title: "Research a question",
      description: `Researches a question ${where}: searches, reads the best sources and answers in Markdown citing them as [S1]..[S5], followed by the numbered sources. Takes from seconds to a few minutes; sends progress notifications when asked. Ask one self-contained question per call.`,
      inputSchema: jsonSchema(ResearchArgsSchema),
      outputSchema: jsonSchema(ResearchResultSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
  ];
  if (backend.extract)
    tools.push({
      name: EXTRACT_TOOL,
      title: "Read a web page",
      description:
        "Fetches one http(s) page or PDF and returns its title and main text as the research engine reads it (navigation, ads and comments left out). Private and loopback addresses are refused unless this machine allows them.",
      inputSchema: jsonSchema(ExtractArgsSchema),
      outputSchema: jsonSchema(ExtractResultSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    });
  return tools;
}

const badArguments = (tool: string) =>
  new AppError("invalid_request", `${tool} takes ${tool === RESEARCH_TOOL ? "{question: string}" : "{url: string}"}`);

/**
 * The MCP server over a backend (README "MCP server: research from AI agents"): `tools/list` and `tools/call`, on
 * the official SDK's protocol layer. A tool that fails answers a result with `isError`,
 * never a protocol error and never a crash; an unknown tool is a protocol error
 * (InvalidParams), as the MCP specification asks.
 */
export function createMcpServer(backend: McpBackend, version: string, logger: Logger): Server {
  const server = new Server(
    { name: "research-query", title: "research-query", version },
    {
      capabilities: { tools: {} },
      instructions:
        "Use `research` for questions that need current or cited information; quote its [Sn] markers with the sources it lists.",
    },
  );
  const tools = toolList(backend);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = req.params;
    if (!tools.some((t) => t.name === name)) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
    try {
      if (name === RESEARCH_TOOL) {
        if (!Value.Check(ResearchArgsSchema, args)) throw badArguments(name);
        const question = checkQuestion((args as ResearchArgs).question, "question");
        const token = req.params._meta?.progressToken;
        let progress = 0;
        // Notifications go out in order and all before the result: a client drops progress
        // for a call it has already been answered.
        let sent = Promise.resolve();
        const env = await backend.research(question, {
          signal: extra.signal,
          onProgress: (p) => {
            if (token === undefined) return;
            const params = { progressToken: token, progress: ++progress, message: `${p.stage}: ${p.message}` };
            sent = sent
              .then(() => extra.sendNotification({ method: "notifications/progress", params }))
              .catch(() => {});
          },
        });
        await sent;
        // The SDK's client handles a notification a microtask after the line that carried it
        // but a response at once: read in one chunk, the response would end the call and its
        // last progress would arrive "for an unknown token". A pause lets them travel apart.
        if (progress) await Bun.sleep(PROGRESS_SETTLE_MS);
        return researchResult(env);
      }
      if (!Value.Check(ExtractArgsSchema, args) || !backend.extract) throw badArguments(name);
      return extractResult(await backend.extract((args as ExtractArgs).url, extra.signal));
    } catch (e) {
      return failureResult(e, logger.error);
    }
  });
  return server;
}
