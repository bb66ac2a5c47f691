import type { Envelope, Source } from "../contract/envelope.ts";
import { type ErrorItem, isAppError, RUN_FAILURE_CODES } from "../contract/errors.ts";
import type { StreamEvent } from "../contract/events.ts";
import type { Engine, RunEvent } from "../research/types.ts";
import type { Logger } from "../util/logger.ts";
import type { Span } from "../util/tracing/spans.ts";
import { wireAndRecord, wireSource } from "./local/recorded-local.ts";
import type { TimelineAs } from "./run-log.ts";

/** A run that passed admission (or a local one, `ask`): what it asks and how it's labelled. */
export interface AdmittedRun {
  id: string;
  /** Whose run it is: only this account may follow it (null for `ask`). */
  accountId: string | null;
  query: string;
  origin: "api" | "app" | "cli";
  endpoint: string;
  /** performance.now() when the call arrived: latency and the deadline count from here. */
  startedAt: number;
  /** Whether its outcome and timeline go to the store (false for `ask`). */
  recorded: boolean;
  /**
   * A run with no account (`ask`, local MCP): the accounts whose private collections the
   * operator let it read (`--owner EMAIL`); shared ones always. An account's run reads its own.
   */
  owners?: string[];
  /** The span of the request that started it (its server span), when traces are on. */
  parent?: Span;
}

/** Starts a run's deadline (calls `onTimeout` after `ms`) and returns its cancel. */
export type DeadlineTimer = (onTimeout: () => void, ms: number) => () => void;

const wallClockDeadline: DeadlineTimer = (onTimeout, ms) => {
  const t = setTimeout(onTimeout, ms);
  return () => clearTimeout(t);
};

export interface ExecuteDeps {
  engine: Engine;
  runTimeoutMs: number;
  /** Default: setTimeout. Tests pass the deadline on cue instead of racing a short RUN_TIMEOUT_MS. */
  deadlineTimer?: DeadlineTimer;
  writer: "llm" | "extractive";
  logger: Logger;
}

/** How a run ended: the envelope its callers get, and its sources as the record keeps them (src/runs/local/recorded-local.ts). */
export interface Executed {
  envelope: Envelope;
  recordedSources: Source[];
}

/**
 * A run's life, the one place it exists: the engine under the run's deadline, its events
 * forwarded to `onEvent` (with how the timeline keeps them when that differs from what is
 * sent), and always an envelope at the end, never a throw. Only the deadline and `stop`
 * (shutdown, or Ctrl-C for `ask`) end it early: a caller that goes away does not, the run
 * outlives its connection (README "Safe retries").
 */
export async function executeRun(
  deps: ExecuteDeps,
  run: AdmittedRun,
  onEvent: (e: StreamEvent, record?: TimelineAs) => void,
  stop: AbortController,
  /** The run's `research.run` span, which the engine's stages hang under. */
  span?: Span,
): Promise<Executed> {
  const at = () => Math.round(performance.now() - run.startedAt);
  let finished = false;
  const cancelDeadline = (deps.deadlineTimer ?? wallClockDeadline)(
    () => stop.abort("run_timeout"),
    Math.max(0, deps.runTimeoutMs - at()),
  );
  // The engine is raced against the abort: a stage that ignores its signal can't hold the run.
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(new Error(String(stop.signal.reason)));
    if (stop.signal.aborted) fail();
    else stop.signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => {});

  const emit = (ev: RunEvent) => {
    if (finished) return;
    try {
      if (ev.type === "answer") {
        onEvent({ event: "answer", data: { delta: ev.delta } });
        return;
      }
      const { event, as } = wireAndRecord(ev);
      onEvent(event, as);
    } catch (e) {
      deps.logger.warn("run_event_failed", { request_id: run.id, error: String(e) });
    }
  };

  let envelope: Envelope;
  let recordedSources: Source[] = [];
  try {
    const r = await Promise.race([
      deps.engine.run(run.query, {
        signal: stop.signal,
        deadline: Date.now() + Math.max(0, deps.runTimeoutMs - at()),
        emit,
        reader: { accounts: run.accountId ? [run.accountId] : (run.owners ?? []) },
        ...(span ? { span, requestId: run.id } : {}),
      }),
      aborted,
    ]);
    recordedSources = r.sources;
    envelope = {
      request_id: run.id,
      status: "ok",
      answer: r.answer,
      sources: r.sources.map(wireSource),
      usage: { latency_ms: at(), tokens_in: r.tokens_in, tokens_out: r.tokens_out },
      errors: r.errors ?? [],
      writer: r.writer,
      ...(r.verification ? { verification: r.verification } : {}),
    };
  } catch (e) {
    const err = toRunError(e, stop.signal, run.id, deps.logger);
    envelope = {
      request_id: run.id,
      status: "error",
      answer: null,
      sources: [],
      usage: { latency_ms: at(), tokens_in: 0, tokens_out: 0 },
      errors: [err],
      writer: deps.writer,
    };
  } finally {
    cancelDeadline();
  }
  finished = true;
  stop.abort("finished"); // stops any upstream work the engine left behind
  return { envelope, recordedSources };
}

function toRunError(e: unknown, signal: AbortSignal, requestId: string, logger: Logger): ErrorItem {
  const reason = signal.aborted ? String(signal.reason) : null;
  if (reason === "run_timeout") return { code: "run_timeout", message: "the run passed its deadline (RUN_TIMEOUT_MS)" };
  if (reason === "shutdown") return { code: "interrupted", message: "the server shut down before the run finished" };
  if (isAppError(e) && RUN_FAILURE_CODES.has(e.code) && e.code !== "interrupted" && e.code !== "client_closed")
    return { code: e.code, message: e.message };
  logger.error("run_failed", {
    request_id: requestId,
    error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
  });
  return { code: "internal_error", message: "the run failed unexpectedly" };
}
