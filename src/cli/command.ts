import type { Config } from "../config/schema.ts";

/**
 * One command of the CLI, as the table in commands.ts lists it. The parser, the usage line and
 * the help text are all read from this description, so a command is one entry in that table.
 */
export interface Command {
  /** The words that name it: "ask", "key list". */
  name: string;
  /** One line for the command list of `--help`. */
  summary: string;
  /** What `research-query NAME --help` says beneath the usage line (may span lines). */
  help?: string;
  positionals: readonly Positional[];
  /** Its flags; every command also takes -h/--help. */
  options: Readonly<Record<string, OptionSpec>>;
  /**
   * Flags or arguments that exclude each other (by flag name or positional name): usage shows a
   * group as `[--owner EMAIL | --shared]`, or `(EMAIL... | --all-unproven)` when one is required,
   * and the checker refuses two of a group, or none of a required one, before anything runs.
   */
  oneOf?: readonly OneOf[];
  /** `--help` also lists the configuration variables, grouped (the server's, read at its start). */
  configHelp?: true;
  /** What its non-zero exits mean beyond the common table, if anything: "1 the run ended in error". */
  exits?: string;
  /**
   * An operator's change: once it exits 0 the audit trail records `operator_<its words joined
   * by _>` with the target this gives (README "The audit trail").
   */
  audited?: (input: CommandInput) => string | null;
  /** Runs it with validated input: the exit code, or null while it keeps running (serve). */
  run(input: CommandInput): Promise<number | null>;
}

export interface OneOf {
  names: readonly string[];
  required?: true;
}

export interface Positional {
  /** Upper case, as shown in usage: EMAIL, KEY_ID. */
  name: string;
  help: string;
  optional?: true;
  /** The last positional only: takes every remaining argument (PATH...). */
  variadic?: true;
  choices?: readonly string[];
}

export interface OptionSpec {
  type: "string" | "boolean";
  help: string;
  /** Shown after a string flag in usage: --name NAME. */
  value?: string;
  choices?: readonly string[];
  /** A flag the command cannot run without: usage shows it without brackets. */
  required?: true;
  /** A string flag that may be given more than once: its values in order (`--owner A --owner B`). */
  repeatable?: true;
}

/** A flag's value: its string, true for a switch given, every value of a repeatable flag. */
export type OptionValue = string | true | readonly string[] | undefined;

/** Flag values by long name, positionals in declared order. */
export interface CommandInput {
  cfg: Config;
  options: Readonly<Record<string, OptionValue>>;
  args: readonly string[];
}

/** Bad command line: printed with the command's usage line (or `hint`), exit 2, before anything runs. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: Command,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The exit codes every command follows (README "Command line", `--help`). */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

export const EXIT_HELP: readonly [number, string][] = [
  [EXIT.ok, "success"],
  [EXIT.failure, "failure: bad configuration, a run that ended in error, an unknown account or key, an upstream error"],
  [EXIT.usage, "usage error: unknown command or flag, missing or extra argument, bad flag value (nothing ran)"],
  [EXIT.interrupted, "interrupted by Ctrl-C (SIGINT)"],
];
