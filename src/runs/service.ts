import { getAccount } from "../auth/accounts.ts";
import type { Config } from "../config/schema.ts";
import type { Envelope } from "../contract/envelope.ts";
import { AppError } from "../contract/errors.ts";
import type { StreamEvent } from "../contract/events.ts";
import { authenticateKey } from "../keys/api-keys.ts";
import type { Metrics } from "../metrics/registry.ts";
import { hasLlm } from "../research/llm/factory.ts";
import type { Engine } from "../research/types.ts";
import type { Awaitable, Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";
import { monthBounds } from "../util/time.ts";
import { allowanceFor } from "./allowance.ts";
import { refusalEnvelope } from "./envelope.ts";
import { type AdmittedRun, executeRun } from "./execute.ts";
import { RunRegistry } from "./registry.ts";

/** Who asks: an API key (the query endpoints) or a session (the web client's /api/v1/research). */
export type Caller = { kind: "key"; presented: string | undefined } | { kind: "session"; accountId: string | null };

/** Who passed the credential check. */
export interface Identity {
  accountId: string;
  keyId: string | null;
  keyPrefix: string | null;
  origin: "api" | "app";
}

export interface RunServiceDeps {
  store: Store;
  engine: Engine;
  config: Config;
  logger: Logger;
  metrics?: Metrics;
}

export interface RunOptions {
  /** The caller going away: today it stops the run (client_closed). */
  signal?: AbortSignal;
  /** Every event in order: progress ("Run accepted" first), source, answer, error, final. */
  onEvent?: (e: StreamEvent) => void;
}

export type RunService = ReturnType<typeof createRunService>;

/**
 * The run service every entry adapts (JSON, SSE, the web client's routes, `ask`): it
 * authenticates a caller, admits a run (credentials → body → allowance, README "The API") and
 * runs it to an envelope. It knows nothing of HTTP. It also tracks the runs in flight so
 * a shutdown can drain them.
 */
export function createRunService(deps: RunServiceDeps) {
  const { store, config, logger } = deps;
  const registry = new RunRegistry();
  // What a failed run reports as its writer: what would have written the answer.
  const writer = hasLlm(config) ? ("llm" as const) : ("extractive" as const);

  return {
    get inFlight(): number {
      return registry.size;
    },
    /** Stops accepting; waits up to `graceMs` for runs, then aborts the rest (interrupted). */
    drain: (graceMs: number) => registry.drain(graceMs),
    /** Resolves once the runs now in flight have ended and been recorded. */
    idle: () => registry.idle(),

    /** The credential check; synchronous when the store is, so refusals never wait. Throws AppError. */
    authenticate(caller: Caller): Awaitable<Identity> {
      if (registry.isDraining)
        throw new AppError("internal_error", "the server is shutting down; retry shortly", 503, { "Retry-After": "5" });
      if (caller.kind === "session") {
        if (!caller.accountId) throw new AppError("unauthorized", "sign in first");
        return { accountId: caller.accountId, keyId: null, keyPrefix: null, origin: "app" };
      }
      const id = authenticateKey(store, caller.presented);
      const identity = (k: { accountId: string; keyId: string; prefix: string }): Identity => ({
        accountId: k.accountId,
        keyId: k.keyId,
        keyPrefix: k.prefix,
        origin: "api",
      });
      return id instanceof Promise ? id.then(identity) : identity(id);
    },

    /**
     * Reads the question (`readQuery` throws invalid_request), then accepts and counts the
     * run in one transaction; quota_exceeded (with Retry-After) when the month is used up.
     */
    async admit(
      who: Identity,
      readQuery: () => Promise<string>,
      endpoint: string,
      id: string,
      startedAt: number,
    ): Promise<AdmittedRun> {
      const query = await readQuery();
      const account = await getAccount(store, who.accountId);
      if (!account)
        throw new AppError(who.origin === "api" ? "invalid_api_key" : "unauthorized", "the account no longer exists");
      const createdAt = new Date();
      const run = {
        id,
        accountId: who.accountId,
        keyId: who.keyId,
        keyPrefix: who.keyPrefix,
        origin: who.origin,
        endpoint,
        query,
        createdAt,
      };
      if (!(await store.runs.accept(run, allowanceFor(config, account.plan)))) {
        const reset = monthBounds(createdAt).end;
        const retry = Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000));
        throw new AppError(
          "quota_exceeded",
          `this month's research runs are used up; the allowance resets at ${reset.toISOString()}`,
          429,
          { "Retry-After": String(retry) },
        );
      }
      return { id, query, origin: who.origin, endpoint, startedAt, recorded: true };
    },

    /** A run of this machine's own (`ask`): no account, no allowance, not recorded. */
    local(query: string): AdmittedRun {
      return {
        id: crypto.randomUUID(),
        query,
        origin: "cli",
        endpoint: "cli",
        startedAt: performance.now(),
        recorded: false,
      };
    },

    /**
     * Runs an admitted run to its end and resolves its envelope (never rejects). The first
     * event leaves before the engine starts, so each caller of a burst hears "accepted" at once.
     */
    async run(run: AdmittedRun, opts: RunOptions = {}): Promise<Envelope> {
      const onEvent = opts.onEvent ?? (() => {});
      const stop = new AbortController();
      const settled = (async (): Promise<Envelope> => {
        onEvent({ event: "progress", data: { stage: "planning", message: "Run accepted", request_id: run.id } });
        await new Promise<void>((r) => setImmediate(r));
        let envelope: Envelope;
        try {
          const done = await executeRun(
            { engine: deps.engine, runTimeoutMs: config.RUN_TIMEOUT_MS, writer, logger },
            run,
            opts.signal,
            onEvent,
            stop,
          );
          envelope = done.envelope;
          deps.metrics?.runs.inc({ status: envelope.status, code: envelope.errors[0]?.code ?? "none" });
          deps.metrics?.runSeconds.observe(envelope.usage.latency_ms / 1000);
          if (run.recorded) {
            await store.runs.finish(
              run.id,
              {
                status: envelope.status,
                answer: envelope.answer,
                sources: envelope.sources,
                errors: envelope.errors,
                writer: envelope.writer ?? null,
                tokensIn: envelope.usage.tokens_in,
                tokensOut: envelope.usage.tokens_out,
                latencyMs: envelope.usage.latency_ms,
              },
              done.timeline,
            );
          }
        } catch (e) {
          logger.error("run_failed", { request_id: run.id, error: String(e) });
          envelope = refusalEnvelope(run.id, run.startedAt, [
            { code: "internal_error", message: "the run failed unexpectedly" },
          ]);
        }
        for (const err of envelope.errors) onEvent({ event: "error", data: err });
        onEvent({ event: "final", data: envelope });
        return envelope;
      })();
      registry.add(run.id, stop, settled);
      return settled;
    },
  };
}

/** Runs left `running` by a crash or a kill become errors coded `interrupted` (at start). */
export function recoverInterruptedRuns(store: Store): Awaitable<number> {
  return store.runs.markInterrupted({
    code: "interrupted",
    message: "the run was cut short by a server shutdown or crash",
  });
}
