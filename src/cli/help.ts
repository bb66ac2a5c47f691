import { configGroups } from "../config/groups.ts";
import { flagUsage, itemWord } from "./args.ts";
import { type Command, EXIT_HELP } from "./command.ts";

const BIN = "research-query";

/**
 * `research-query key list EMAIL [--json]`, from the command's table entry: a required flag bare,
 * an optional one in brackets, a group that excludes each other as `[a | b]` (`(a | b)` required).
 */
export function usageLine(cmd: Command): string {
  const items = [
    ...cmd.positionals.map((p) => ({ name: p.name, optional: p.optional === true, more: "" })),
    ...Object.entries(cmd.options).map(([name, o]) => ({
      name,
      optional: o.required !== true,
      more: o.repeatable ? "..." : "",
    })),
  ];
  const words: string[] = [];
  for (const { name, optional, more } of items) {
    const group = cmd.oneOf?.find((g) => g.names.includes(name));
    if (!group) words.push(`${optional ? `[${itemWord(cmd, name)}]` : itemWord(cmd, name)}${more}`);
    else if (group.names[0] === name) {
      const inner = group.names.map((n) => itemWord(cmd, n)).join(" | ");
      words.push(group.required ? `(${inner})` : `[${inner}]`);
    }
  }
  return [BIN, cmd.name, ...words].join(" ");
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
  if (cmd.configHelp) parts.push(configHelp().trimEnd());
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

/** Every configuration variable, one line each with its default, in groups (from the schema). */
export function configHelp(): string {
  const groups = configGroups();
  const w = Math.max(...groups.flatMap((g) => g.lines.map((l) => l.name.length))) + 2;
  const blocks = groups.map(
    (g) =>
      `${g.title}:\n${g.lines
        .map((l) => {
          const def = l.default === undefined ? "" : ` (default: ${String(l.default)})`;
          return `  ${l.name.padEnd(w)}${l.description}${def}`;
        })
        .join("\n")}`,
  );
  return `Configuration (environment variables; a .env file in the working directory is read too):\n\n${blocks.join("\n\n")}\n`;
}

/** `--help`: every command, the exit codes and every configuration variable with its default. */
export function helpText(commands: readonly Command[]): string {
  return `${BIN} — a self-hosted research API: questions in, cited answers out.

${commandList(commands)}
${EXITS}

${configHelp()}`;
}
