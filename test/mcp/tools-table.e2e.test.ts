import { afterAll, describe, expect, test } from "bun:test";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { TOOLS } from "../../src/mcp/tools.ts";
import { MAIN } from "../cli/run-cli.ts";
import { useLongTimeout } from "../setup.ts";
import { type McpSession, mcpSession } from "./mcp-client.ts";

useLongTimeout();

// Listing, dispatch and `mcp --help` all read the TOOLS table: every row shows in each, in its modes only.

const sessions: McpSession[] = [];
afterAll(async () => {
  for (const s of sessions) await s.close();
});
const NO_UPSTREAMS = { ACADEMIC_PROVIDERS: "none", DATABASE_PATH: "./none.db" };

describe("mcp: the TOOLS table", () => {
  for (const [mode, args] of [
    ["local", []],
    // A remote server is asked nothing until a research call: an address that answers nothing will do.
    ["remote", ["--server", "http://127.0.0.1:9"]],
  ] as const) {
    test(`${mode} mode lists the rows of its mode, with their schemas; any other name is InvalidParams`, async () => {
      const s = await mcpSession([...args], NO_UPSTREAMS);
      sessions.push(s);
      const rows = TOOLS.filter((t) => t.modes.includes(mode));
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(rows.map((t) => t.name));
      for (const [i, t] of rows.entries()) {
        expect(tools[i]!.description).toBe(t.description(mode));
        expect(tools[i]!.inputSchema).toEqual(JSON.parse(JSON.stringify(t.args)));
        expect(tools[i]!.outputSchema).toEqual(JSON.parse(JSON.stringify(t.result)));
        // Dispatch finds the row: a bad argument is its own error result, not an unknown tool.
        const bad = await s.client.callTool({ name: t.name, arguments: { nothing: 1 } });
        expect(bad).toMatchObject({
          isError: true,
          content: [{ text: `invalid_request: ${t.name} takes ${t.argsHint}` }],
        });
        // Text no backend can store is refused before the tool runs, naming the argument.
        const name = Object.keys(t.args.properties)[0]!;
        const nul = await s.client.callTool({ name: t.name, arguments: { [name]: "https://a.example/\u0000" } });
        expect(nul).toMatchObject({
          isError: true,
          content: [
            { text: `invalid_request: ${name} holds U+0000 (NUL) or an unpaired surrogate: not accepted in text` },
          ],
        });
      }
      const others = [...TOOLS.filter((t) => !t.modes.includes(mode)).map((t) => t.name), "summarise"];
      for (const name of others)
        await expect(s.client.callTool({ name, arguments: {} })).rejects.toMatchObject({
          code: ErrorCode.InvalidParams,
        });
    });
  }

  test("mcp --help names every row with its arguments and what it gives back", () => {
    const help = Bun.spawnSync(["bun", MAIN, "mcp", "--help"], { env: { PATH: process.env.PATH! } });
    const out = help.stdout.toString();
    for (const t of TOOLS) {
      const line = out.split("\n").find((l) => l.trimStart().startsWith(`${t.name} {`));
      expect(line).toContain(t.help);
      for (const arg of Object.keys(t.args.properties)) expect(line).toContain(arg);
    }
  });
});
