import { ConfigSchema } from "../config/schema.ts";
import { flagUsage } from "./args.ts";
import { type Command, EXIT_HELP } from "./command.ts";

const BIN = "research-query";

/** `research-query key list EMAIL [--json]`, from the command's table entry. */
export function usageLine(cmd: Command): string {
  const pos = cmd.positionals.map((p) => {
    const word = p.variadic ? `${p.name}...` : p.name;
    return p.optional ? `[${word}]` : word;
  });
  const opts = Object.entries(cmd.options).map(
    ([name, o]) => `${o.required ? flagUsage(name, o) : `[${flagUsage(name, o)}]`}${o.repeatable ? "..." : ""}`,
  );
  return [BIN, cmd.name, ...pos, ...opts].join(" ");
}

/** The two lines after a usage error: the command's usage (or the general one) and where to read more. */
export function usageHint(cmd?: Command): string {
  return cmd
    ? `usage: ${usageLine(cmd)}   (${BIN} ${cmd.name} --help for more)\n`
    : `usage: ${BIN} <command> [options]   (${BIN} --help for more)\n`;
}

/** `research-query key --help` and a bare `research-query key`: the usage line of each of its commands. */
export function groupUsage(group: string, cmds: readonly Command[]): string {
  return `usage:\n${cmds.map((c) => `  ${usageLine(c)}`).join("\n")}\n(${BIN} ${group} <command> --help for more)\n`;
}

const table = (rows: [string, string][]) => {
  const w = Math.max(...rows.map(([a]) => a.length)) + 2;
  return rows.map(([a, b]) => `  ${a.padEnd(w)}${b.replaceAll("\n", `\n  ${" ".repeat(w)}`)}`).join("\n");
};

const EXITS = `Exit codes:\n${table(EXIT_HELP.map(([c, s]) => [String(c), s]))}`;

/** `research-query NAME --help`: usage, what it does, its arguments and flags, its exit codes. */
export function commandHelp(cmd: Command): string {
  const about = cmd.help ?? `${cmd.summary[0]!.toUpperCase()}${cmd.summary.slice(1)}.`;
  const parts = [`usage: ${usageLine(cmd)}`, about];
  if (cmd.positionals.length) parts.push(`Arguments:\n${table(cmd.positionals.map((p) => [p.name, p.help]))}`);
  const opts: [string, string][] = Object.entries(cmd.options).map(([name, o]) => [
    flagUsage(name, o),
    o.help + (o.choices ? ` (${o.choices.join(", ")})` : "") + (o.repeatable ? " (may be given more than once)" : ""),
  ]);
  opts.push(["-h, --help", "this text"]);
  parts.push(`Options:\n${table(opts)}`);
  parts.push(cmd.exits ? `${EXITS}\n  ${cmd.exits}` : EXITS);
  return `${parts.join("\n\n")}\n`;
}

/** The command list: what a bare `research-query` prints (on stderr) and `--help` begins with. */
export function commandList(commands: readonly Command[]): string {
  return `Usage: ${BIN} <command> [arguments] [options]

Commands:
${table(commands.map((c) => [c.name, c.summary]))}

Options:
${table([
  ["-h, --help", "this text; after a command, that command's arguments, options and exit codes"],
  ["-v, --version", "print the version"],
])}
`;
}

/** `--help`: every command, the exit codes and every configuration variable with its default. */
export function helpText(commands: readonly Command[]): string {
  const rows = Object.entries(ConfigSchema.properties).map(([name, schema]) => {
    const s = schema as { default?: unknown; description?: string };
    const def = s.default === undefined ? "" : ` (default: ${String(s.default)})`;
    return `  ${name.padEnd(22)} ${s.description ?? ""}${def}`;
  });
  return `${BIN} — a self-hosted research API: questions in, cited answers out.

${commandList(commands)}
${EXITS}

Configuration (environment variables; a .env file in the working directory is read too):
${rows.join("\n")}
`;
}
