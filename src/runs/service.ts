import type { Config } from "../config/schema.ts";
import type { Envelope } from "../contract/envelope.ts";
import { AppError } from "../contract/errors.ts";
import type { StreamEvent } from "../contract/events.ts";
import { authenticateKey } from "../keys/api-keys.ts";
import type { Metrics } from "../metrics/registry.ts";
import { hasLlm } from "../research/llm/factory.ts";
import type { Engine } from "../research/types.ts";
import type { Awaitable, Plan, Store } from "../store/types.ts";
import { sha256Hex } from "../util/crypto.ts";
import type { Logger } from "../util/logger.ts";
import { monthBounds, periodOf } from "../util/time.ts";
import { allowancesOf, type Standing, secondsToReset } from "./allowance.ts";
import { refusalEnvelope } from "./envelope.ts";
import type { AdmittedRun, DeadlineTimer } from "./execute.ts";
import type { HeldOutcomes } from "./held-outcomes.ts";
import { attacher, INTERRUPTED } from "./instances/attach.ts";
import { type Follow, liveFollow } from "./instances/follow.ts";
import { type LiveRun, RunRegistry } from "./registry.ts";
import { runToEnd } from "./run-to-end.ts";

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
  /**
   * The lease its recorded runs live under (src/runs/instances/instance-lease.ts). Only a service that
   * records nothing (`ask`) has none; a run recorded without one would look dead to others.
   */
  instanceId?: string;
  /** Awaited before the first run is recorded, when the lease is taken asynchronously (InstanceLease.taken). */
  leaseTaken?: Promise<void>;
  /** Starts each run's RUN_TIMEOUT_MS deadline (default: setTimeout); tests pass it on cue. */
  deadlineTimer?: DeadlineTimer;
  /** Where outcomes the database has not taken by a shutdown are kept for the next start (a server's). */
  held?: HeldOutcomes;
  /** The allowance's clock (its month, Retry-After, the RateLimit fields); tests set a known instant. */
  now?: () => Date;
}

export interface RunOptions {
  /** Stops the run (as a shutdown would): only `ask`'s Ctrl-C; an HTTP caller leaving never does. */
  signal?: AbortSignal;
  /** Every event in order: progress ("Run accepted" first), source, answer, error, final. */
  onEvent?: (e: StreamEvent) => void;
}

/** What admission decided: a new run to start, or the run an Idempotency-Key already names. */
export type Admission = { run: AdmittedRun } | { existing: Follow };

export type RunService = ReturnType<typeof createRunService>;

/** How long an Idempotency-Key names its run (README "Safe retries"). */
const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

/** The answer to every new call while the server drains (docs/decisions/0036-shutdown-drains.md). */
export const SHUTTING_DOWN = Object.freeze(
  new AppError("internal_error", "the server is shutting down; retry shortly", 503, { "Retry-After": "5" }),
);

/**
 * The run service every entry adapts (JSON, SSE, the web client's routes, `ask`): it
 * authenticates a caller, admits a run (credentials → body → allowance, README "The API"),
 * starts it, and lets any caller of the same account follow it by id (README "Safe
 * retries"). It knows nothing of HTTP. Runs outlive their callers; the registry of runs in
 * flight lets a shutdown drain them.
 */
export function createRunService(deps: RunServiceDeps) {
  const { store, config, logger } = deps;
  const registry = new RunRegistry();
  // What a failed run reports as its writer: what would have written the answer.
  const writer = hasLlm(config) ? ("llm" as const) : ("extractive" as const);
  const allowances = allowancesOf(config);
  const now = deps.now ?? (() => new Date());

  const toEnd = runToEnd({
    store,
    engine: deps.engine,
    config,
    logger,
    metrics: deps.metrics,
    writer,
    deadlineTimer: deps.deadlineTimer,
    abandon: registry.abandoned,
    held: deps.held,
  });
  const attach = attacher({ store, registry, writer, runTimeoutMs: config.RUN_TIMEOUT_MS });
  /** search_unavailable when nothing the accounts' question could use can search (docs/decisions/0142-refuse-before-acceptance-when-nothing-can-search.md). */
  const searchable = (accounts: string[]): Awaitable<AppError | null | undefined> =>
    deps.engine.refusal?.({ accounts });
  /** Runs a run (registered at admission, or now for `ask`) to its end, in the background. */
  const begin = (run: AdmittedRun): LiveRun => {
    const live = registry.get(run.id) ?? registry.open(run.id, run.accountId, run.startedAt);
    void toEnd(run, live);
    return live;
  };

  return {
    get inFlight(): number {
      return registry.size - registry.unrecorded;
    },
    /** Runs that have ended, whose outcome waits for the database to come back. */
    get unrecorded(): number {
      return registry.unrecorded;
    },
    /** True from the start of a shutdown: every new call is answered SHUTTING_DOWN. */
    get draining(): boolean {
      return registry.isDraining;
    },
    /** Stops accepting; waits up to `graceMs` for runs, then aborts the rest (interrupted). */
    drain: (graceMs: number) => registry.drain(graceMs),
    /** Resolves once the runs now in flight have ended and been recorded. */
    idle: () => registry.idle(),

    /** The credential check; synchronous when the store is, so refusals never wait. Throws AppError. */
    authenticate(caller: Caller): Awaitable<Identity> {
      if (registry.isDraining) throw SHUTTING_DOWN;
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
     * With an Idempotency-Key the same transaction finds the run it already names (no
     * charge) or refuses the key reused for another question (idempotency_key_reused).
     */
    async admit(
      who: Identity,
      readQuery: () => Promise<string>,
      endpoint: string,
      id: string,
      startedAt: number,
      idempotencyKey?: string,
    ): Promise<Admission> {
      const query = await readQuery();
      // Before the allowance: a question nothing can search is refused, not charged as a failed run.
      const refusing = searchable([who.accountId]);
      if (refusing) {
        const refused = refusing instanceof Promise ? await refusing : refusing;
        if (refused) throw refused;
      }
      if (!deps.instanceId) throw new Error("a run service without an instance lease cannot record runs");
      if (deps.leaseTaken) await deps.leaseTaken;
      const createdAt = now();
      const run = {
        id,
        accountId: who.accountId,
        keyId: who.keyId,
        keyPrefix: who.keyPrefix,
        origin: who.origin,
        endpoint,
        query,
        createdAt,
        instanceId: deps.instanceId,
      };
      const claim = idempotencyKey
        ? {
            key: idempotencyKey,
            queryHash: sha256Hex(query),
            since: new Date(createdAt.getTime() - IDEMPOTENCY_WINDOW_MS),
          }
        : undefined;
      // The account's plan, the key still active, the claim and the count: one transaction, and
      // on PostgreSQL one round trip (docs/decisions/0111-acceptance-in-one-round-trip.md).
      const pending = store.runs.accept(run, allowances, claim);
      const acceptance = pending instanceof Promise ? await pending : pending;
      if (acceptance.accepted) {
        // Registered in the turn the store accepted it, before any retry can look for it.
        registry.open(id, who.accountId, startedAt);
        return {
          run: { id, accountId: who.accountId, query, origin: who.origin, endpoint, startedAt, recorded: true },
        };
      }
      if ("refused" in acceptance) {
        if (acceptance.refused === "key_inactive") throw new AppError("key_inactive", "the API key was revoked");
        throw new AppError(who.origin === "api" ? "invalid_api_key" : "unauthorized", "the account no longer exists");
      }
      if ("existing" in acceptance) {
        if (!acceptance.sameQuery)
          throw new AppError(
            "idempotency_key_reused",
            "this Idempotency-Key was sent with another question in the last 24 hours; use a new key for a new question",
          );
        const follow = await attach(who.accountId, acceptance.existing);
        if (!follow) throw new AppError("internal_error", "the run this Idempotency-Key names is gone", 500);
        return { existing: follow };
      }
      const reset = monthBounds(createdAt).end;
      const retry = secondsToReset(now());
      throw new AppError(
        "quota_exceeded",
        `this month's research runs are used up; the allowance resets at ${reset.toISOString()}`,
        429,
        { "Retry-After": String(retry) },
      );
    },

    /**
     * A run of this machine's own (`ask`): no account, no allowance, not recorded; it reads
     * shared collections and the private ones of `owners` (account ids).
     */
    local(query: string, owners: string[] = []): AdmittedRun {
      return {
        id: crypto.randomUUID(),
        accountId: null,
        owners,
        query,
        origin: "cli",
        endpoint: "cli",
        startedAt: performance.now(),
        recorded: false,
      };
    },

    /** Starts an admitted run (it runs to its end whatever its callers do) and returns a view of it. */
    start: (run: AdmittedRun): Follow => liveFollow(run.id, begin(run)),

    /**
     * Starts a run and resolves its envelope (never rejects); `onEvent` hears every event. A
     * question nothing can search gets search_unavailable's envelope and no run.
     */
    async run(run: AdmittedRun, opts: RunOptions = {}): Promise<Envelope> {
      // A check that could not be made (the database away) leaves the run to meet it and fail as it would.
      const refused = await Promise.resolve(searchable(run.accountId ? [run.accountId] : (run.owners ?? []))).catch(
        () => null,
      );
      if (refused) return refusalEnvelope(run.id, run.startedAt, [{ code: refused.code, message: refused.message }]);
      const live = begin(run);
      const stop = () => live.stop.abort("shutdown");
      if (opts.signal?.aborted) stop();
      else opts.signal?.addEventListener("abort", stop, { once: true });
      const onEvent = opts.onEvent;
      if (onEvent) await liveFollow(run.id, live).stream(0, (s) => onEvent(s.event));
      const envelope = await live.done;
      opts.signal?.removeEventListener("abort", stop);
      return envelope;
    },

    /**
     * The account's allowance as it stands now (README "The API": RateLimit), read after any
     * acceptance of this call, so it never shows runs left that a concurrent call took.
     */
    standing(who: Identity): Awaitable<Standing | null> {
      const at = now();
      const read = store.runCounters.standing(who.accountId, periodOf(at));
      const of = (s: { plan: Plan; used: number } | null): Standing | null =>
        s && { limit: allowances[s.plan], used: s.used, at };
      return read instanceof Promise ? read.then(of) : of(read);
    },

    /** The run `runId` of this caller's account to follow (README "Safe retries"), or null if it has none such. */
    attach: (who: Identity, runId: string) => attach(who.accountId, runId),
  };
}

/**
 * Runs left `running` by an instance that died (a crash, a kill, a lost host) become errors
 * coded `interrupted` once its lease has expired; a live instance's runs are never touched.
 * Called at start and every heartbeat by src/runs/instances/instance-lease.ts.
 */
export function recoverInterruptedRuns(store: Store): Awaitable<number> {
  return store.runs.markInterrupted(INTERRUPTED);
}
