import { LoginThrottle } from "../auth/login-throttle.ts";
import type { Config } from "../config/schema.ts";
import { openDatabase, type Db } from "../db/open.ts";
import type { Engine } from "../research/types.ts";
import { RunRegistry } from "../runs/registry.ts";
import { markInterruptedRuns } from "../runs/store.ts";
import { createLogger, type Logger } from "../util/logger.ts";
import { createHandlers } from "./app.ts";
import { Metrics } from "../metrics/registry.ts";
import webApp from "../web/index.html";

/** Paths the web app answers (client-side routing); everything else is the API. */
export const WEB_PATHS = ["/", "/signin", "/signup", "/research", "/keys", "/usage", "/runs/:id"];
import type { AppDeps } from "./deps.ts";

export interface StartOptions {
  config: Config;
  engine: Engine;
  db?: Db;
  logger?: Logger;
  keepAliveMs?: number;
  /** Bun closes connections silent this long (s); query calls are exempt. Tests shorten it. */
  idleTimeoutSec?: number;
  /** Shared with the engine so upstream calls are counted. */
  metrics?: Metrics;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** Stops accepting, lets running runs finish within `graceMs`, then closes. */
  stop(graceMs?: number): Promise<void>;
}

/** Opens the database, recovers interrupted runs, and listens on HOST:PORT. */
export function startServer(opts: StartOptions): RunningServer {
  const logger = opts.logger ?? createLogger(opts.config.LOG_LEVEL);
  const db = opts.db ?? openDatabase(opts.config.DATABASE_PATH);
  const interrupted = markInterruptedRuns(db);
  if (interrupted) logger.warn("runs_interrupted", { count: interrupted });
  const registry = new RunRegistry();
  const deps: AppDeps = {
    config: opts.config, db, engine: opts.engine, registry, logger,
    throttle: new LoginThrottle(), keepAliveMs: opts.keepAliveMs ?? 15_000,
    metrics: opts.metrics ?? new Metrics(() => registry.size),
  };
  const { queryRoutes, fetch } = createHandlers(deps);
  const server = Bun.serve({
    port: opts.config.PORT, hostname: opts.config.HOST,
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
    url, port: server.port ?? 0, deps,
    async stop(graceMs = 10_000) {
      void server.stop(false);
      await deps.registry.drain(graceMs);
      await server.stop(true);
      db.$client.close();
    },
  };
}
