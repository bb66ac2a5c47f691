import type { Config } from "../config/schema.ts";
import type { Envelope, Source, Writer } from "../contract/envelope.ts";
import type { StreamEvent } from "../contract/events.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { Engine } from "../research/types.ts";
import type { RunOutcome, Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";
import { endSpan, startSpan } from "../util/tracing/spans.ts";
import { nextTurn } from "../util/turns.ts";
import { refusalEnvelope } from "./envelope.ts";
import { type AdmittedRun, type DeadlineTimer, executeRun } from "./execute.ts";
import type { HeldOutcomes } from "./held-outcomes.ts";
import { mirrorRun } from "./instances/mirror.ts";
import { type OutcomeBackoff, recordOutcome } from "./record-outcome.ts";
import type { LiveRun } from "./registry.ts";

export interface RunToEndDeps {
  store: Store;
  engine: Engine;
  config: Config;
  logger: Logger;
  metrics?: Metrics;
  writer: Writer;
  deadlineTimer?: DeadlineTimer;
  /** Aborted when a shutdown stops waiting for the database (RunRegistry.abandoned). */
  abandon: AbortSignal;
  backoff?: OutcomeBackoff;
  /** Where an outcome still waiting for the database at a shutdown is kept (a server's; `ask` has none). */
  held?: HeldOutcomes;
}

/**
 * Runs one registered run to its end: "Run accepted" first, the engine's events into the
 * run's log, its outcome and timeline into the store, then its error and final events, and
 * the envelope to whoever waits. Nobody's connection is involved: the run outlives them all.
 */
export function runToEnd(deps: RunToEndDeps) {
  const { store, config, logger, writer, held } = deps;
  return async (run: AdmittedRun, live: LiveRun): Promise<void> => {
    const log = live.log;
    // On a database shared across hosts, followers on other instances read the events from there.
    if (run.recorded && store.runStream) mirrorRun(store.runStream, run.id, log, logger);
    const span = startSpan("research.run", run.parent, {
      "research.request_id": run.id,
      "research.origin": run.origin,
      "research.endpoint": run.endpoint,
    });
    // The trace id is the timeline's alone (the Console shows it); replays rebuild "accepted" without it.
    const traceId = span?.spanContext().traceId;
    log.push(
      { event: "progress", data: { stage: "planning", message: "Run accepted", request_id: run.id } },
      {
        type: "accepted",
        data: { origin: run.origin, endpoint: run.endpoint, ...(traceId ? { trace_id: traceId } : {}) },
      },
    );
    // The first event leaves before the engine starts, and the engine waits its turn behind the
    // loop's I/O, so each caller of a burst hears "accepted" at once.
    await nextTurn();
    let envelope: Envelope;
    let recordedSources: Source[] = [];
    try {
      ({ envelope, recordedSources } = await executeRun(
        { engine: deps.engine, runTimeoutMs: config.RUN_TIMEOUT_MS, deadlineTimer: deps.deadlineTimer, writer, logger },
        run,
        (e, as) => log.push(e, as),
        live.stop,
        span,
      ));
      deps.metrics?.runs.inc({ status: envelope.status, code: envelope.errors[0]?.code ?? "none" });
      deps.metrics?.runSeconds.observe(envelope.usage.latency_ms / 1000);
    } catch (e) {
      logger.error("run_failed", { request_id: run.id, error: String(e) });
      envelope = refusalEnvelope(run.id, run.startedAt, [
        { code: "internal_error", message: "the run failed unexpectedly" },
      ]);
    }
    // An `error` event says the run failed; a completed run's notes travel in `final` alone.
    const failures = envelope.status === "error" ? envelope.errors : [];
    // Ended before `final` goes out: whoever hears it can find the whole run in the trace.
    span?.setAttributes({
      "research.status": envelope.status,
      "research.sources": envelope.sources.length,
      "research.writer": envelope.writer,
    });
    endSpan(span, failures[0]?.code);
    const tail: StreamEvent[] = [
      ...failures.map((data) => ({ event: "error" as const, data })),
      { event: "final", data: envelope },
    ];
    // Stored before the final event goes out: whoever hears `final` finds the run finished —
    // unless the database is away. Then the answer goes out all the same and is written once
    // it is back; until then the run stays registered, so a retry here is answered from memory.
    let pending: (() => Promise<void>) | undefined;
    if (run.recorded) {
      await nextTurn();
      const outcome = outcomeOf(envelope, recordedSources);
      const timeline = log.timelineWith(tail);
      const first = await recordOutcome(() => store.runs.finish(run.id, outcome, timeline), {
        runId: run.id,
        logger,
        abandon: deps.abandon,
        backoff: deps.backoff,
        keep: held && (() => held.keep(run.id, outcome, timeline)),
      });
      if ("waiting" in first) pending = first.retry;
    }
    for (const e of tail) log.push(e);
    // The request line of a stream is written at its headers, of a JSON call at its answer;
    // this line is the run's own outcome, whichever caller (or none) is still there.
    logger.info("run_end", {
      request_id: run.id,
      status: envelope.status,
      code: envelope.errors[0]?.code,
      latency_ms: envelope.usage.latency_ms,
      writer: envelope.writer,
      origin: run.origin,
      endpoint: run.endpoint,
      sources: envelope.sources.length,
    });
    live.settle(envelope);
    await pending?.();
    live.recorded();
  };
}

/** What the store keeps of a run's end: its sources with their collections' ids (src/runs/local/recorded-local.ts). */
function outcomeOf(envelope: Envelope, recordedSources: Source[]): RunOutcome {
  return {
    status: envelope.status,
    answer: envelope.answer,
    sources: envelope.status === "ok" ? recordedSources : envelope.sources,
    errors: envelope.errors,
    writer: envelope.writer ?? null,
    tokensIn: envelope.usage.tokens_in,
    tokensOut: envelope.usage.tokens_out,
    latencyMs: envelope.usage.latency_ms,
    verification: envelope.verification ?? null,
  };
}
