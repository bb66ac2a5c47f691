import type { Config } from "../config/schema.ts";
import type { Db } from "../db/open.ts";
import { isAppError, type ErrorItem } from "../errors.ts";
import type { Engine, RunEvent } from "../research/types.ts";
import type { Logger } from "../util/logger.ts";
import type { Envelope } from "./envelope.ts";
import type { RunRegistry } from "./registry.ts";
import type { Metrics } from "../metrics/registry.ts";
import { finishRunWithTimeline, type TimelineEvent } from "./store.ts";

export interface RunnerDeps { db: Db; engine: Engine; config: Config; registry: RunRegistry; logger: Logger; metrics?: Metrics }

/** An accepted run: its row exists and it has been counted. */
export interface AcceptedRun { id: string; query: string; origin: string; endpoint: string; startedAt: number }

/** Receives what the stream shows: progress, source and answer events. */
export type EventSink = (name: "progress" | "source" | "answer", data: unknown) => void;

const RUN_CODES = new Set(["search_failed", "no_sources", "llm_failed", "run_timeout", "internal_error"]);

/**
 * Runs the engine for an accepted run under the run's deadline, the client's signal and
 * the server's shutdown, records its timeline, and always resolves with an envelope.
 */
export async function executeRun(deps: RunnerDeps, run: AcceptedRun, clientSignal: AbortSignal | undefined, sink?: EventSink): Promise<Envelope> {
  const { db, engine, config, logger } = deps;
  const ac = new AbortController();
  const at = () => Math.round(performance.now() - run.startedAt);
  let finished = false;
  let answerChars = 0;
  const timeline: TimelineEvent[] = [];
  const record = (type: string, data: Record<string, unknown>) => { if (!finished) timeline.push({ atMs: at(), type, data }); };

  const onClient = () => ac.abort("client_closed");
  if (clientSignal?.aborted) onClient(); else clientSignal?.addEventListener("abort", onClient, { once: true });
  const deadline = setTimeout(() => ac.abort("run_timeout"), Math.max(0, config.RUN_TIMEOUT_MS - at()));
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(new AbortReason(String(ac.signal.reason)));
    if (ac.signal.aborted) fail(); else ac.signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => {});

  const emit = (ev: RunEvent) => {
    if (finished) return;
    try {
      if (ev.type === "answer") { answerChars += ev.delta.length; sink?.("answer", { delta: ev.delta }); return; }
      const { type, ...data } = ev;
      const payload = type === "source" ? ev.source : data;
      record(type, type === "source" ? { source: ev.source } : data);
      sink?.(type, payload);
    } catch (e) { logger.warn("run_event_failed", { request_id: run.id, error: String(e) }); }
  };

  record("accepted", { origin: run.origin, endpoint: run.endpoint });
  const done = (async (): Promise<Envelope> => {
    let env: Envelope;
    try {
      const r = await Promise.race([engine.run(run.query, { signal: ac.signal, emit }), aborted]);
      env = {
        request_id: run.id, status: "ok", answer: r.answer, sources: r.sources,
        usage: { latency_ms: at(), tokens_in: r.tokens_in, tokens_out: r.tokens_out }, errors: [], writer: r.writer,
      };
    } catch (e) {
      const err = toRunError(e, ac.signal, run.id, logger);
      env = { request_id: run.id, status: "error", answer: null, sources: [], usage: { latency_ms: at(), tokens_in: 0, tokens_out: 0 }, errors: [err], writer: writerOf(config) };
      record("error", { ...err });
    } finally {
      clearTimeout(deadline);
      clientSignal?.removeEventListener("abort", onClient);
    }
    if (answerChars) record("answer", { chars: answerChars });
    record("final", { status: env.status, latency_ms: env.usage.latency_ms });
    finished = true;
    deps.metrics?.runs.inc({ status: env.status, code: env.errors[0]?.code ?? "none" });
    deps.metrics?.runSeconds.observe(env.usage.latency_ms / 1000);
    ac.abort("finished"); // stops any upstream work the engine left behind
    finishRunWithTimeline(db, run.id, {
      status: env.status, answer: env.answer, sources: env.sources, errors: env.errors, writer: env.writer ?? null,
      tokensIn: env.usage.tokens_in, tokensOut: env.usage.tokens_out, latencyMs: env.usage.latency_ms,
    }, timeline);
    return env;
  })();
  deps.registry.add(run.id, ac, done);
  return done;
}

class AbortReason extends Error {}

/** The writer an error envelope reports: what would have written the answer. */
function writerOf(cfg: Config): "llm" | "extractive" {
  return cfg.GROQ_API_KEY || cfg.OPENAI_BASE_URL ? "llm" : "extractive";
}

function toRunError(e: unknown, signal: AbortSignal, requestId: string, logger: Logger): ErrorItem {
  const reason = signal.aborted ? String(signal.reason) : null;
  if (reason === "run_timeout") return { code: "run_timeout", message: "the run passed its deadline (RUN_TIMEOUT_MS)" };
  if (reason === "shutdown") return { code: "interrupted", message: "the server shut down before the run finished" };
  if (reason === "client_closed") return { code: "client_closed", message: "the client closed the connection; the run was stopped" };
  if (isAppError(e) && RUN_CODES.has(e.code)) return { code: e.code, message: e.message };
  logger.error("run_failed", { request_id: requestId, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  return { code: "internal_error", message: "the run failed unexpectedly" };
}
