import { ConfigSchema } from "../config/schema.ts";

const COMMANDS = `research-query — a self-hosted research API: questions in, cited answers out.

Usage: research-query <command> [options]

Commands:
  serve                                  start the server (HOST:PORT)
  ask "question" [--json]                one research run in the terminal: progress on stderr,
                                         the answer and its sources on stdout; --json prints
                                         the envelope (no server, no key, no account)
  extract FILE|URL|-                     print the main text the engine reads from one HTML page
  account create EMAIL [--plan PLAN]     create an account (password from RQ_PASSWORD or a prompt)
  account set-plan EMAIL PLAN            change an account's plan (free, pro, researcher)
  key create EMAIL [--name NAME]         print a new API key for that account
  --help                                 this text

Configuration (environment variables; a .env file in the working directory is read too):`;

/** The --help text: every command and every configuration variable with its default. */
export function helpText(): string {
  const rows = Object.entries(ConfigSchema.properties).map(([name, schema]) => {
    const s = schema as { default?: unknown; description?: string };
    const def = s.default === undefined ? "" : ` (default: ${String(s.default)})`;
    return `  ${name.padEnd(22)} ${s.description ?? ""}${def}`;
  });
  return `${COMMANDS}\n${rows.join("\n")}\n`;
}
