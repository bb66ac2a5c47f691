#!/usr/bin/env bun
import { loadConfig } from "../config/load.ts";
import { isAppError } from "../contract/errors.ts";
import { accountCommand, keyCommand } from "./accounts.ts";
import { parseArgs } from "./args.ts";
import { helpText } from "./help.ts";
import { serveCommand } from "./serve.ts";

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const cmd = args.positional[0];
  if (!cmd || args.flags.help || args.flags.h || cmd === "help") {
    process.stdout.write(helpText());
    return cmd || args.flags.help || args.flags.h ? 0 : 2;
  }
  const cfg = loadConfig();
  switch (cmd) {
    case "serve":
      await serveCommand(cfg);
      return -1;
    case "account":
      await accountCommand(cfg, args);
      return 0;
    case "key":
      await keyCommand(cfg, args);
      return 0;
    case "ask":
      return (await import("./ask.ts")).askCommand(cfg, args);
    case "extract":
      return (await import("./extract.ts")).extractCommand(args, cfg.FETCH_ALLOW_PRIVATE);
    default:
      process.stderr.write(`unknown command: ${cmd}\n\n${helpText()}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    process.stderr.write(`research-query: ${isAppError(e) ? e.message : e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
