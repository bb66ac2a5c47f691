import { existsSync } from "node:fs";
import type { Config } from "../config/schema.ts";
import type { Source } from "../contract/envelope.ts";
import { buildEngine } from "../research/build-engine.ts";
import { createRunService } from "../runs/service.ts";
import { openStore } from "../store/open.ts";
import type { Store } from "../store/types.ts";
import { createLogger } from "../util/logger.ts";
import { type CommandInput, EXIT, UsageError } from "./command.ts";
import { clearStatus, rewriteStatus } from "./terminal.ts";

/** Progress on stderr: one rewritten line on a terminal, plain lines otherwise. */
function printProgress(stage: string, message: string): void {
  const line = `[${stage}] ${message}`;
  if (!rewriteStatus(line)) process.stderr.write(`${line}\n`);
}

/** Where a source is: its address, the venue of a paper, the collection and document of a local one. */
function whereFrom(s: Source): string {
  if (s.type === "local") return `${s.collection} · ${s.doc_id}${s.url.startsWith("local:") ? "" : `  (${s.url})`}`;
  return `${s.url}${s.type === "academic" ? `  (${[s.venue, s.published_at].filter(Boolean).join(", ")})` : ""}`;
}

function formatSources(sources: Source[]): string {
  return sources.map((s) => `[${s.id}] ${s.title}\n     ${whereFrom(s)}`).join("\n");
}

// `ask` records nothing: the run service is given no store to write to.
const noStore = new Proxy(
  {},
  {
    get: () => {
      throw new Error("ask records nothing");
    },
  },
) as Store;

/**
 * The collections at DATABASE_URL or DATABASE_PATH, for the `local` provider only: the run
 * itself is still recorded nowhere. No database file, no collections (and no file is created).
 */
async function collectionsStore(cfg: Config): Promise<Store | undefined> {
  if (cfg.LOCAL_SEARCH === "off") return;
  if (!cfg.DATABASE_URL && (cfg.DATABASE_PATH === ":memory:" || !existsSync(cfg.DATABASE_PATH))) return;
  return await openStore(cfg);
}

/** The question: the argument, or standard input to its end for `-` (never implicitly: see README). */
async function readQuestion(arg: string): Promise<string> {
  if (arg !== "-") return arg.trim();
  if (process.stdin.isTTY) process.stderr.write("Question (end with Ctrl-D):\n");
  return (await Bun.stdin.text()).trim();
}

/** `ask QUESTION|- [--json]`: one run in the terminal through the run service; no server, no key, no account. */
export async function askCommand({ cfg, options, args }: CommandInput): Promise<number> {
  const question = await readQuestion(args[0]!);
  if (!question) throw new UsageError(args[0] === "-" ? "no question on standard input" : "the question is empty");
  const logger = createLogger(cfg.LOG_LEVEL === "info" ? "warn" : cfg.LOG_LEVEL);
  const collections = await collectionsStore(cfg);
  const engine = buildEngine(cfg, logger, undefined, undefined, collections);
  const runs = createRunService({ store: noStore, engine, config: cfg, logger });
  const interrupt = new AbortController();
  process.once("SIGINT", () => interrupt.abort("interrupted"));
  const env = await runs.run(runs.local(question), {
    signal: interrupt.signal,
    onEvent: (e) => {
      if (e.event === "progress" && e.data.message !== "Run accepted") printProgress(e.data.stage, e.data.message);
    },
  });
  await collections?.close();
  clearStatus();
  const failed = interrupt.signal.aborted ? EXIT.interrupted : EXIT.failure;
  if (options.json) {
    process.stdout.write(`${JSON.stringify(env, null, 2)}\n`);
    return env.status === "ok" ? EXIT.ok : failed;
  }
  if (env.status !== "ok") {
    process.stderr.write(`error: ${env.errors.map((e) => `${e.code}: ${e.message}`).join("; ")}\n`);
    return failed;
  }
  process.stdout.write(`${env.answer}\n\nSources:\n${formatSources(env.sources)}\n`);
  return EXIT.ok;
}
