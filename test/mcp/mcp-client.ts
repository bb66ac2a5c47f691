import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MAIN } from "../cli/run-cli.ts";

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far (its logs). */
  stderr(): string;
  /** Errors the client's transport met: a line on stdout that is not a protocol message lands here. */
  transportErrors: Error[];
  close(): Promise<void>;
}

/**
 * The SDK's own Client over its stdio transport, spawning `research-query mcp` as an agent
 * would (`command` defaults to the CLI from the checkout), in a fresh directory with only
 * the given environment.
 */
export async function mcpSession(
  args: string[],
  env: Record<string, string> = {},
  command: string[] = ["bun", MAIN],
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: command[0]!,
    args: [...command.slice(1), "mcp", ...args],
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? "/tmp", ...env },
    cwd: mkdtempSync(join(tmpdir(), "rq-mcp-")),
    stderr: "pipe",
  });
  const err: string[] = [];
  transport.stderr?.on("data", (d) => err.push(String(d)));
  const transportErrors: Error[] = [];
  const client = new Client({ name: "rq-test-agent", version: "1.0.0" });
  client.onerror = (e) => transportErrors.push(e);
  await client.connect(transport);
  return { client, stderr: () => err.join(""), transportErrors, close: () => client.close() };
}

/** The text of a tool result's first content block. */
export function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return first?.type === "text" ? (first.text ?? "") : "";
}
