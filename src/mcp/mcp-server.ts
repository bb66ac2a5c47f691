import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../util/logger.ts";
import type { McpBackend, McpMode } from "./backend.ts";
import type { McpTool } from "./tool.ts";
import { failureResult } from "./tool-results.ts";
import { TOOLS } from "./tools.ts";

// TypeBox schemas are JSON Schema; the copy drops TypeBox's symbol keys.
const jsonSchema = (s: object) => JSON.parse(JSON.stringify(s)) as Tool["inputSchema"];

const listed = (t: McpTool, mode: McpMode): Tool => ({
  name: t.name,
  title: t.title,
  description: t.description(mode),
  inputSchema: jsonSchema(t.args),
  outputSchema: jsonSchema(t.result),
  annotations: { readOnlyHint: true, openWorldHint: true },
});

/**
 * The MCP server over a backend (README "MCP server: research from AI agents"): `tools/list`
 * and `tools/call` of the TOOLS rows offered in the backend's mode, on the official SDK's
 * protocol layer. A tool that fails answers a result with `isError`, never a protocol error and
 * never a crash; an unknown tool is a protocol error (InvalidParams), as the MCP specification asks.
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
  const offered = TOOLS.filter((t) => t.modes.includes(backend.mode));
  const tools = offered.map((t) => listed(t, backend.mode));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = req.params;
    const tool = offered.find((t) => t.name === name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
    try {
      return await tool.call(args, backend, {
        signal: extra.signal,
        progressToken: req.params._meta?.progressToken,
        notify: (n) => extra.sendNotification(n),
      });
    } catch (e) {
      return failureResult(e, logger.error);
    }
  });
  return server;
}
