import { answerText, errorsText } from "../runs/answer-text.ts";
import { createLogger, toStderr } from "../util/logger.ts";
import { ownerOptions } from "./collection-args.ts";
import { type CommandInput, EXIT, UsageError } from "./command.ts";
import { openLocalRunsAs } from "./local-owners.ts";
import { clearStatus, rewriteStatus, say, warn } from "./terminal.ts";

/** Progress on stderr: one rewritten line on a terminal, plain lines otherwise. */
function printProgress(stage: string, message: string): void {
  const line = `[${stage}] ${message}`;
  if (!rewriteStatus(line)) warn(`${line}\n`);
}

/** The question: the argument, or standard input to its end for `-` (never implicitly: docs/decisions/0033-cli-checks-before-running.md). */
async function readQuestion(arg: string): Promise<string> {
  if (arg !== "-") return arg.trim();
  if (process.stdin.isTTY) process.stderr.write("Question (end with Ctrl-D):\n");
  return (await Bun.stdin.text()).trim();
}

/**
 * `ask QUESTION|- [--json] [--owner EMAIL]...`: one run in the terminal through the run service; no
 * server, no key, no account. It reads the shared collections and the private ones of each --owner.
 */
export async function askCommand(input: CommandInput): Promise<number> {
  const { cfg, options, args } = input;
  const question = await readQuestion(args[0]!);
  if (!question) throw new UsageError(args[0] === "-" ? "no question on standard input" : "the question is empty");
  const logger = createLogger(cfg.LOG_LEVEL === "info" ? "warn" : cfg.LOG_LEVEL, toStderr);
  const { runs, close, owners } = await openLocalRunsAs(cfg, logger, ownerOptions(input));
  const interrupt = new AbortController();
  process.once("SIGINT", () => interrupt.abort("interrupted"));
  const env = await runs.run(runs.local(question, owners), {
    signal: interrupt.signal,
    onEvent: (e) => {
      if (e.event === "progress" && e.data.message !== "Run accepted") printProgress(e.data.stage, e.data.message);
    },
  });
  await close();
  clearStatus();
  const failed = interrupt.signal.aborted ? EXIT.interrupted : EXIT.failure;
  if (options.json) {
    process.stdout.write(`${JSON.stringify(env, null, 2)}\n`);
    return env.status === "ok" ? EXIT.ok : failed;
  }
  if (env.status !== "ok") {
    warn(`error: ${errorsText(env)}\n`);
    return failed;
  }
  say(`${answerText(env)}\n`);
  return EXIT.ok;
}
