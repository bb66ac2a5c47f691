import type { Config } from "../config/schema.ts";
import type { Source } from "../contract/envelope.ts";
import { AppError } from "../contract/errors.ts";
import { buildEngine } from "../research/build-engine.ts";
import { createRunService } from "../runs/service.ts";
import type { Store } from "../store/types.ts";
import { createLogger } from "../util/logger.ts";
import type { Args } from "./args.ts";

/** Progress on stderr: one rewritten line on a terminal, plain lines otherwise. */
function printProgress(stage: string, message: string): void {
  const line = `[${stage}] ${message}`;
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns ?? 100) - 1)}`);
  else process.stderr.write(`${line}\n`);
}

function formatSources(sources: Source[]): string {
  return sources
    .map(
      (s) =>
        `[${s.id}] ${s.title}\n     ${s.url}${s.type === "academic" ? `  (${[s.venue, s.published_at].filter(Boolean).join(", ")})` : ""}`,
    )
    .join("\n");
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

/** `ask "question" [--json]`: one run in the terminal through the run service; no server, no key, no account. */
export async function askCommand(cfg: Config, args: Args): Promise<number> {
  const question = args.positional.slice(1).join(" ").trim();
  if (!question) throw new AppError("invalid_request", 'usage: research-query ask "question" [--json]');
  const logger = createLogger(cfg.LOG_LEVEL === "info" ? "warn" : cfg.LOG_LEVEL);
  const runs = createRunService({ store: noStore, engine: buildEngine(cfg, logger), config: cfg, logger });
  const interrupt = new AbortController();
  process.once("SIGINT", () => interrupt.abort("interrupted"));
  const env = await runs.run(runs.local(question), {
    signal: interrupt.signal,
    onEvent: (e) => {
      if (e.event === "progress" && e.data.message !== "Run accepted") printProgress(e.data.stage, e.data.message);
    },
  });
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[2K");
  if (args.flags.json) {
    process.stdout.write(`${JSON.stringify(env, null, 2)}\n`);
    return env.status === "ok" ? 0 : 1;
  }
  if (env.status !== "ok") {
    process.stderr.write(`error: ${env.errors.map((e) => `${e.code}: ${e.message}`).join("; ")}\n`);
    return 1;
  }
  process.stdout.write(`${env.answer}\n\nSources:\n${formatSources(env.sources)}\n`);
  return 0;
}
