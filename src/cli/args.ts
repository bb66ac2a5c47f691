import { parseArgs } from "node:util";
import { closest } from "../util/edit-distance.ts";
import { type Command, type OptionSpec, type OptionValue, UsageError } from "./command.ts";

export interface ParsedArgs {
  options: Record<string, OptionValue>;
  args: string[];
  help: boolean;
}

/** A flag as usage writes it: `--name NAME`, `--json`. */
export const flagUsage = (name: string, o: OptionSpec) => `--${name}${o.value ? ` ${o.value}` : ""}`;

/** How usage writes a flag or positional of `cmd` by name, brackets aside: `--owner EMAIL`, `EMAIL...`. */
export function itemWord(cmd: Command, name: string): string {
  const p = cmd.positionals.find((x) => x.name === name);
  if (p) return p.variadic ? `${p.name}...` : p.name;
  return flagUsage(name, cmd.options[name]!);
}

/** " (did you mean X?)" when one of `known` is within two edits of `given`, else "". */
export function didYouMean(given: string, known: readonly string[], show = (k: string) => k): string {
  const best = closest(given, known);
  return best === undefined ? "" : ` (did you mean ${show(best)}?)`;
}

/**
 * Checks `argv` (the words after the command's name) against the command's flags and positionals.
 * Node's tokenizer splits the words (--x=v, -abc, a lone -, --); every judgement is ours, so each
 * mistake is named: an unknown flag, a flag without its value, a value given to a switch, a flag
 * given twice (unless it is repeatable), a value outside its choices, a missing or extra argument.
 * `--` ends the flags.
 */
export function parseCommandArgs(cmd: Command, argv: string[]): ParsedArgs {
  const specs: Readonly<Record<string, OptionSpec>> = cmd.options;
  const { tokens } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(Object.entries(specs).map(([k, o]) => [k, { type: o.type }])),
      help: { type: "boolean", short: "h" },
    },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const options: ParsedArgs["options"] = {};
  const args: string[] = [];
  // -h/--help anywhere before -- wins: asking how to use a command never runs it or judges the rest.
  if (tokens.some((t) => t.kind === "option" && t.name === "help")) return { options, args, help: true };
  for (const t of tokens) {
    if (t.kind === "positional") {
      args.push(t.value);
      continue;
    }
    if (t.kind === "option-terminator") continue;
    // Own names only: --constructor or --__proto__ are unknown flags, not Object's properties.
    const spec = Object.hasOwn(specs, t.name) ? specs[t.name] : undefined;
    if (!spec)
      throw new UsageError(
        `unknown option ${t.rawName}${didYouMean(t.name, Object.keys(cmd.options), (k) => `--${k}`)}`,
        cmd,
      );
    const before = options[t.name];
    if (before !== undefined && !spec.repeatable) throw new UsageError(`${t.rawName} given twice`, cmd);
    if (spec.type === "boolean") {
      if (t.value !== undefined) throw new UsageError(`${t.rawName} takes no value`, cmd);
      options[t.name] = true;
      continue;
    }
    // Node hands a string flag the next word whatever it is; a flag there means the value is missing.
    if (t.value === undefined || (!t.inlineValue && t.value.startsWith("-") && t.value !== "-"))
      throw new UsageError(`${t.rawName} needs a value${spec.value ? ` (${spec.value})` : ""}`, cmd);
    if (spec.choices && !spec.choices.includes(t.value))
      throw new UsageError(`${t.rawName} must be one of ${spec.choices.join(", ")}, not "${t.value}"`, cmd);
    options[t.name] = spec.repeatable ? [...((before as readonly string[] | undefined) ?? []), t.value] : t.value;
  }
  for (const [name, spec] of Object.entries(specs))
    if (spec.required && options[name] === undefined) throw new UsageError(`missing ${flagUsage(name, spec)}`, cmd);
  checkOneOf(cmd, options, args);
  checkPositionals(cmd, args);
  return { options, args, help: false };
}

function checkPositionals(cmd: Command, args: string[]): void {
  const ps = cmd.positionals;
  ps.forEach((p, i) => {
    if (p.variadic) return;
    const v = args[i];
    if (v === undefined) {
      if (!p.optional) throw new UsageError(`missing ${p.name}`, cmd);
    } else if (p.choices && !p.choices.includes(v))
      throw new UsageError(`${p.name} must be one of ${p.choices.join(", ")}, not "${v}"`, cmd);
  });
  const last = ps.at(-1);
  if (last?.variadic && !last.optional && args.length < ps.length) throw new UsageError(`missing ${last.name}`, cmd);
  if (!last?.variadic && args.length > ps.length) throw new UsageError(`unexpected argument "${args[ps.length]}"`, cmd);
}

/** Two of a group that exclude each other, or none of a required one: named, nothing runs. */
function checkOneOf(cmd: Command, options: ParsedArgs["options"], args: string[]): void {
  for (const group of cmd.oneOf ?? []) {
    const given = group.names.filter((name) => {
      const at = cmd.positionals.findIndex((p) => p.name === name);
      return at >= 0 ? args.length > at : options[name] !== undefined;
    });
    const words = group.names.map((name) => itemWord(cmd, name));
    const either = `give either ${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
    if (given.length > 1) throw new UsageError(`${either}, not both`, cmd);
    if (group.required && !given.length) throw new UsageError(either, cmd);
  }
}
