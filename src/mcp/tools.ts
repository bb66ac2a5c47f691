import { ExtractArgsSchema, ExtractResultSchema, ResearchArgsSchema, ResearchResultSchema } from "../contract/mcp.ts";
import type { McpMode } from "./backend.ts";
import { defineTool, type McpTool } from "./tool.ts";

// Calls load on use, as the CLI's COMMANDS do: `mcp --help` reads this table without the engine.

const WHERE: Record<McpMode, string> = {
  local: "on this machine (the web, academic databases and the collections configured here)",
  remote:
    "on the research-query server this MCP server was started with; each call uses one run of the account's monthly allowance",
};

/**
 * Every tool of `research-query mcp`. Adding one is adding a row (its argument and result
 * schemas in src/contract/mcp.ts): `tools/list` offers the rows of the backend's mode in this
 * order, `tools/call` checks a row's arguments and calls it, and `mcp --help` lists it.
 */
export const TOOLS: readonly McpTool[] = [
  defineTool({
    name: "research",
    title: "Research a question",
    description: (mode) =>
      `Researches a question ${WHERE[mode]}: searches, reads the best sources and answers in Markdown citing them as [S1]..[S5], followed by the numbered sources. Takes from seconds to a few minutes; sends progress notifications when asked. Ask one self-contained question per call.`,
    help: "the answer citing [S1]..[S5] and its sources; the envelope as structured content; progress notifications",
    args: ResearchArgsSchema,
    result: ResearchResultSchema,
    modes: ["local", "remote"],
    call: async ({ question }, backend, ctx) =>
      (await import("./research-call.ts")).callResearch(question, backend, ctx),
  }),
  defineTool({
    name: "extract",
    title: "Read a web page",
    description: () =>
      "Fetches one http(s) page or PDF and returns its title and main text as the research engine reads it (navigation, ads and comments left out). Private and loopback addresses are refused unless this machine allows them.",
    help: "the title and main text of one page or PDF, as the engine reads it",
    args: ExtractArgsSchema,
    result: ExtractResultSchema,
    modes: ["local"],
    call: async ({ url }, backend, ctx) =>
      (await import("./tool-results.ts")).extractResult(await backend.extract(url, ctx.signal)),
  }),
];

/** The tools as `mcp --help` lists them: name, arguments, what comes back, and where offered. */
export function toolsHelp(): string {
  const rows = TOOLS.map((t) => [`${t.name} ${t.argsHint.replace(/: \w+/g, "")}`, t.help, t.modes] as const);
  const w = Math.max(...rows.map(([a]) => a.length)) + 2;
  return rows
    .map(([a, help, modes]) => `  ${a.padEnd(w)}${help}${modes.length === 1 ? ` (${modes[0]} mode only)` : ""}`)
    .join("\n");
}
