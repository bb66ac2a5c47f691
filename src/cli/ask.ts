import type { Config } from "../config/schema.ts";
import { AppError, isAppError } from "../errors.ts";
import { buildEngine } from "../research/build-engine.ts";
import type { RunEvent, Source } from "../research/types.ts";
import { refusalEnvelope, type Envelope } from "../runs/envelope.ts";
import { createLogger } from "../util/logger.ts";
import type { Args } from "./args.ts";

const RUN_CODES = new Set(["search_failed", "no_sources", "llm_failed", "run_timeout", "internal_error"]);

/** Progress on stderr: one rewritten line on a terminal, plain lines otherwise. */
function progressPrinter(): (ev: RunEvent) => void {
  const tty = !!process.stderr.isTTY;
  return (ev) => {
    if (ev.type !== "progress") return;
    const line = `[${ev.stage}] ${ev.message}`;
    if (tty) process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns ?? 100) - 1)}`);
    else process.stderr.write(line + "\n");
  };
}

function formatSources(sources: Source[]): string {
  return sources.map((s) => `[${s.id}] ${s.title}\n     ${s.url}${s.type === "academic" ? `  (${[s.venue, s.published_at].filter(Boolean).join(", ")})` : ""}`).join("\n");
}

/** `ask "question" [--json]`: one run in the terminal, no server, no key, no account. */
export async function askCommand(cfg: Config, args: Args): Promise<number> {
  const question = args.positional.slice(1).join(" ").trim();
  if (!question) throw new AppError("invalid_request", 'usage: research-query ask "question" [--json]');
  const engine = buildEngine(cfg, createLogger(cfg.LOG_LEVEL === "info" ? "warn" : cfg.LOG_LEVEL));
  const t0 = performance.now();
  const requestId = crypto.randomUUID();
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort("run_timeout"), cfg.RUN_TIMEOUT_MS);
  process.once("SIGINT", () => ac.abort("interrupted"));
  const print = progressPrinter();
  let env: Envelope;
  try {
    const r = await engine.run(question, { signal: ac.signal, emit: print });
    env = { request_id: requestId, status: "ok", answer: r.answer, sources: r.sources, usage: { latency_ms: Math.round(performance.now() - t0), tokens_in: r.tokens_in, tokens_out: r.tokens_out }, errors: [], writer: r.writer };
  } catch (e) {
    const code = ac.signal.reason === "run_timeout" ? "run_timeout" : isAppError(e) && RUN_CODES.has(e.code) ? e.code : "internal_error";
    env = { ...refusalEnvelope(requestId, t0, [{ code, message: e instanceof Error ? e.message : String(e) }]) };
  } finally { clearTimeout(timer); }
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[2K");
  if (args.flags.json) { process.stdout.write(JSON.stringify(env, null, 2) + "\n"); return env.status === "ok" ? 0 : 1; }
  if (env.status !== "ok") { process.stderr.write(`error: ${env.errors.map((e) => `${e.code}: ${e.message}`).join("; ")}\n`); return 1; }
  process.stdout.write(`${env.answer}\n\nSources:\n${formatSources(env.sources)}\n`);
  return 0;
}
