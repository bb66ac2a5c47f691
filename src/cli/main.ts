#!/usr/bin/env bun
import { loadConfig } from "../config/load.ts";
import { isAppError } from "../contract/errors.ts";
import { didYouMean, parseCommandArgs } from "./args.ts";
import { type Command, EXIT, UsageError } from "./command.ts";
import { COMMANDS } from "./commands.ts";
import { commandHelp, commandList, groupUsage, helpText, usageHint } from "./help.ts";
import { warn } from "./terminal.ts";
import { VERSION } from "./version.ts";

const isHelp = (w: string | undefined) => w === "--help" || w === "-h";

/** The command the leading words name, and the words left for it; a group alone prints its commands. */
function resolve(words: string[]): { cmd: Command; rest: string[] } | { group: string; cmds: Command[] } {
  const [first = "", second] = words;
  if (first.startsWith("-")) throw new UsageError(`unknown option ${first} (a command's options go after it)`);
  const cmds = COMMANDS.filter((c) => c.name.split(" ")[0] === first);
  const single = cmds.find((c) => c.name === first);
  if (single) return { cmd: single, rest: words.slice(1) };
  if (!cmds.length) {
    const names = [...new Set(COMMANDS.map((c) => c.name.split(" ")[0]!))];
    throw new UsageError(`unknown command ${first}${didYouMean(first, names)}`);
  }
  const subs = cmds.map((c) => c.name.split(" ")[1]!);
  const hint = groupUsage(first, cmds);
  if (isHelp(second)) return { group: first, cmds };
  if (second === undefined) throw new UsageError(`${first} needs a command: ${subs.join(", ")}`, undefined, hint);
  const cmd = cmds.find((c) => c.name === `${first} ${second}`);
  if (!cmd) throw new UsageError(`unknown command ${first} ${second}${didYouMean(second, subs)}`, undefined, hint);
  return { cmd, rest: words.slice(2) };
}

/** Help and the version print without configuration; everything else is checked before it runs. */
async function main(argv: string[]): Promise<number | null> {
  const [first, ...more] = argv;
  if (first === undefined) {
    process.stderr.write(commandList(COMMANDS));
    return EXIT.usage;
  }
  if (first === "--version" || first === "-v") {
    if (more.length) throw new UsageError(`${first} takes no arguments`);
    process.stdout.write(`research-query ${VERSION}\n`);
    return EXIT.ok;
  }
  const asked = isHelp(first) || first === "help";
  if (asked && !more.length) {
    process.stdout.write(helpText(COMMANDS));
    return EXIT.ok;
  }
  // `help key list` is `key list --help`.
  const found = resolve(asked ? [...more, "--help"] : argv);
  if ("group" in found) {
    process.stdout.write(groupUsage(found.group, found.cmds));
    return EXIT.ok;
  }
  const { cmd, rest } = found;
  try {
    const parsed = parseCommandArgs(cmd, rest);
    if (parsed.help) {
      process.stdout.write(commandHelp(cmd));
      return EXIT.ok;
    }
    const input = {
      cfg: loadConfig(process.env, process.cwd(), (line) => warn(`research-query: ${line}\n`)),
      options: parsed.options,
      args: parsed.args,
    };
    const code = await cmd.run(input);
    if (code === EXIT.ok && cmd.audited) await (await import("./operator-audit.ts")).recordOperator(cmd, input);
    return code;
  } catch (e) {
    throw e instanceof UsageError && !e.command && !e.hint ? new UsageError(e.message, cmd) : e;
  }
}

function fail(e: unknown): number {
  if (e instanceof UsageError) {
    const who = e.command ? `research-query ${e.command.name}` : "research-query";
    warn(`${who}: ${e.message}\n${e.hint ?? usageHint(e.command)}`);
    return EXIT.usage;
  }
  warn(`research-query: ${isAppError(e) || e instanceof Error ? e.message : String(e)}\n`);
  return EXIT.failure;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (e: unknown) => process.exit(fail(e)),
);
