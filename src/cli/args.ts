/** Positional arguments and --flags (`--name value`, `--name=value`, boolean `--json`). */
export interface Args {
  positional: string[];
  flags: Record<string, string | true>;
}

export function parseArgs(argv: string[], booleanFlags: ReadonlySet<string> = new Set(["json", "help", "h"])): Args {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    const m = /^--?([A-Za-z][\w-]*)(?:=(.*))?$/.exec(a);
    if (!m) {
      positional.push(a);
      continue;
    }
    const name = m[1]!;
    if (m[2] !== undefined) flags[name] = m[2];
    else if (booleanFlags.has(name) || i + 1 >= argv.length || argv[i + 1]!.startsWith("--")) flags[name] = true;
    else flags[name] = argv[++i]!;
  }
  return { positional, flags };
}
