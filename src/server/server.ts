import { LoginThrottle, loginAttemptsFor } from "../auth/login-throttle.ts";
import { createMailer } from "../auth/mailer.ts";
import { type ImportQueueOptions, startImportQueue } from "../collections/import/import-queue.ts";
import { openSpool } from "../collections/uploads/spool.ts";
import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { Metrics } from "../metrics/registry.ts";
import type { Engine } from "../research/types.ts";
import type { DeadlineTimer } from "../runs/execute.ts";
import { type HeldOutcomes, heldOutcomes, heldOutcomesDir } from "../runs/held-outcomes.ts";
import { type LeaseTimings, startInstanceLease } from "../runs/instances/instance-lease.ts";
import { createRunService } from "../runs/service.ts";
import type { Store } from "../store/types.ts";
import { createLogger, type Logger } from "../util/logger.ts";
import { redactUrl } from "../util/redact-url.ts";
import webApp from "../web/index.html";
import { createHandlers } from "./app.ts";
import type { AppDeps } from "./deps.ts";
import { drain } from "./drain.ts";
import { type Retention, type RetentionTimings, startRetention } from "./retention/sweeper.ts";
import { webPages } from "./web-pages.ts";

export interface StartOptions {
  config: Config;
  engine: Engine;
  /** The open store (src/store/open.ts's openStore); closed when the server stops. */
  store: Store;
  logger?: Logger;
  keepAliveMs?: number;
  /** Bun closes connections silent this long (s); query calls are exempt. Tests shorten it. */
  idleTimeoutSec?: number;
  /** How long a client may take to send a request body (default 10 s); tests shorten it. */
  bodyTimeoutMs?: number;
  /** Shared with the engine so upstream calls are counted. */
  metrics?: Metrics;
  /** The instance lease's heartbeat and expiry (README "Instances on one database"); tests shorten them. */
  lease?: LeaseTimings;
  /** Starts each run's deadline (default: setTimeout); tests pass it on cue. */
  runDeadline?: DeadlineTimer;
  /** The allowance's clock (its month, Retry-After, RateLimit); tests set a known instant. */
  allowanceClock?: () => Date;
  /** Told of each stream run accepted (default: the process's turns); tests count them. */
  arrivals?: AppDeps["arrivals"];
  /** The upload import queue's settings beyond the configuration's; tests replace its worker, timers, sweeps. */
  imports?: Pick<ImportQueueOptions, "worker" | "sweepMs">;
  /** The retention sweep's timers, batch and clock (README "Retention"); tests set them. */
  retention?: RetentionTimings;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** Stops accepting, lets running runs finish within `graceMs`, then closes. */
  stop(graceMs?: number): Promise<void>;
  /** The retention sweep (its timers started with the server): tests run one at will. */
  retention: Retention;
}

/** Takes the instance lease on the store (recovering dead instances' runs), and listens on HOST:PORT. */
export function startServer(opts: StartOptions): RunningServer {
  const logger = opts.logger ?? createLogger(opts.config.LOG_LEVEL);
  const store = opts.store;
  // Dead instances' runs are marked interrupted before the first run is accepted: on SQLite the first
  // round is over when this returns; on PostgreSQL the run service waits for it (lease.taken).
  const lease = startInstanceLease(store, logger, opts.lease);
  // Outcomes a stop during an outage kept on disk are written before the first run is accepted.
  const heldDir = heldOutcomesDir(opts.config);
  const held = heldDir ? heldOutcomes(heldDir) : undefined;
  const ready = held?.any ? Promise.resolve(lease.taken).then(() => replayHeld(held, store, logger)) : lease.taken;
  let runs: AppDeps["runs"] | undefined;
  const metrics = opts.metrics ?? new Metrics(() => runs?.inFlight ?? 0);
  runs = createRunService({
    store,
    engine: opts.engine,
    config: opts.config,
    logger,
    metrics,
    instanceId: lease.id,
    leaseTaken: ready,
    deadlineTimer: opts.runDeadline,
    held,
    now: opts.allowanceClock,
  });
  // Uploaded files are imported in the background by the instance that received them.
  const imports = startImportQueue({
    store,
    config: opts.config,
    logger,
    instanceId: lease.id,
    leaseTaken: lease.taken,
    spool: openSpool(opts.config),
    metrics,
    ...opts.imports,
  });
  // Old runs (and whatever else RETENTION_SWEEPS lists) deleted in the background, never on a request.
  const retention = startRetention(store, opts.config, logger, opts.retention);
  const deps: AppDeps = {
    config: opts.config,
    store,
    imports,
    runs,
    logger,
    metrics,
    throttle: new LoginThrottle(loginAttemptsFor(store)),
    mailer: createMailer(opts.config),
    keepAliveMs: opts.keepAliveMs ?? 15_000,
    bodyTimeoutMs: opts.bodyTimeoutMs,
    arrivals: opts.arrivals,
  };
  const { queryRoutes, fetch } = createHandlers(deps);
  const pages = webPages(webApp);
  let server: Bun.Server<undefined>;
  try {
    server = listen(opts.config, {
      // The query endpoints are native routes too: they are the hot path (see createHandlers).
      routes: { ...pages.routes, ...queryRoutes },
      idleTimeout: opts.idleTimeoutSec ?? 30,
      fetch: (req, srv) => fetch(req, srv),
    });
  } catch (e) {
    // A server that never listened holds no lease (its heartbeat would keep the process alive).
    void retention.stop();
    void imports.stop();
    void lease.release();
    throw e;
  }
  const url = `http://${server.hostname?.includes(":") ? `[${server.hostname}]` : server.hostname}:${server.port}`;
  pages.attach(url);
  logger.info("listening", {
    url,
    database: store.backend === "postgres" ? redactUrl(opts.config.DATABASE_URL ?? "") : opts.config.DATABASE_PATH,
  });
  return {
    url,
    port: server.port ?? 0,
    deps,
    retention,
    async stop(graceMs = 10_000) {
      await drain(server, runs, graceMs);
      await retention.stop();
      await imports.stop();
      await lease.release();
      await store.close();
    },
  };
}

/** A failure here must not stop the server: the files stay for the next start. */
async function replayHeld(held: HeldOutcomes, store: Store, logger: Logger): Promise<void> {
  try {
    await held.replay(store, logger);
  } catch (e) {
    logger.error("held_outcomes_unstored", { dir: held.dir, error: String(e) });
  }
}

type ServeOptions = Pick<Bun.Serve.Options<undefined>, "routes" | "idleTimeout" | "fetch">;

/**
 * Bun.serve with our limits. `reusePort: false`: with `development: false` Bun turns port
 * reuse on, and a second instance on a taken port started silently and took half the
 * connections; now it refuses to start, naming PORT. Bun's own body limit answers with a
 * bare 413 before any handler (no envelope, no request id, before the credential check), so
 * it is set out of reach and every route reads bodies through http/request-body.ts.
 */
function listen(cfg: Config, opts: ServeOptions): Bun.Server<undefined> {
  try {
    return Bun.serve({
      port: cfg.PORT,
      hostname: cfg.HOST,
      // The web app: Bun bundles the HTML import (server/web-pages.ts).
      development: false,
      reusePort: false,
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      ...opts,
    } as Bun.Serve.Options<undefined>);
  } catch (e) {
    if ((e as { code?: string }).code === "EADDRINUSE")
      throw new AppError(
        "config_invalid",
        `invalid PORT=${cfg.PORT}: the port is taken on ${cfg.HOST} (another server, perhaps another research-query, listens there); stop it or choose another PORT`,
        500,
      );
    throw e;
  }
}
