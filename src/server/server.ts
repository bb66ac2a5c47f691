import { LoginThrottle } from "../auth/login-throttle.ts";
import type { Config } from "../config/schema.ts";
import { Metrics } from "../metrics/registry.ts";
import type { Engine } from "../research/types.ts";
import { type LeaseTimings, startInstanceLease } from "../runs/instance-lease.ts";
import { createRunService } from "../runs/service.ts";
import { openStore } from "../store/open.ts";
import type { Store } from "../store/types.ts";
import { createLogger, type Logger } from "../util/logger.ts";
import webApp from "../web/index.html";
import { createHandlers } from "./app.ts";
import type { AppDeps } from "./deps.ts";

/** Paths the web app answers (client-side routing); everything else is the API. */
export const WEB_PATHS = ["/", "/signin", "/signup", "/research", "/keys", "/usage", "/runs/:id"];

export interface StartOptions {
  config: Config;
  engine: Engine;
  store?: Store;
  logger?: Logger;
  keepAliveMs?: number;
  /** Bun closes connections silent this long (s); query calls are exempt. Tests shorten it. */
  idleTimeoutSec?: number;
  /** Shared with the engine so upstream calls are counted. */
  metrics?: Metrics;
  /** The instance lease's heartbeat and expiry (README "Instances on one database"); tests shorten them. */
  lease?: LeaseTimings;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** Stops accepting, lets running runs finish within `graceMs`, then closes. */
  stop(graceMs?: number): Promise<void>;
}

/** Opens the store, takes the instance lease (recovering dead instances' runs), and listens on HOST:PORT. */
export function startServer(opts: StartOptions): RunningServer {
  const logger = opts.logger ?? createLogger(opts.config.LOG_LEVEL);
  const store = opts.store ?? openStore(opts.config);
  // Dead instances' runs are marked interrupted before the first run is accepted (SQLite answers synchronously).
  const lease = startInstanceLease(store, logger, opts.lease);
  let runs: AppDeps["runs"] | undefined;
  const metrics = opts.metrics ?? new Metrics(() => runs?.inFlight ?? 0);
  runs = createRunService({ store, engine: opts.engine, config: opts.config, logger, metrics, instanceId: lease.id });
  const deps: AppDeps = {
    config: opts.config,
    store,
    runs,
    logger,
    metrics,
    throttle: new LoginThrottle(),
    keepAliveMs: opts.keepAliveMs ?? 15_000,
  };
  const { queryRoutes, fetch } = createHandlers(deps);
  const server = Bun.serve({
    port: opts.config.PORT,
    hostname: opts.config.HOST,
    // The web app: Bun bundles the HTML import (at start from a checkout, at build time into
    // the compiled binary), so the UI needs no files beside the executable and no CDN.
    development: false,
    // The query endpoints are native routes too: they are the hot path (see createHandlers).
    routes: { ...Object.fromEntries(WEB_PATHS.map((p) => [p, webApp])), ...queryRoutes },
    maxRequestBodySize: 4 * 1024 * 1024,
    idleTimeout: opts.idleTimeoutSec ?? 30,
    fetch: (req, srv) => fetch(req, srv),
  });
  const url = `http://${server.hostname?.includes(":") ? `[${server.hostname}]` : server.hostname}:${server.port}`;
  logger.info("listening", { url, database: opts.config.DATABASE_PATH });
  return {
    url,
    port: server.port ?? 0,
    deps,
    async stop(graceMs = 10_000) {
      void server.stop(false);
      await runs.drain(graceMs);
      await lease.release();
      await server.stop(true);
      await store.close();
    },
  };
}
