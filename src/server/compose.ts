import type { Config } from "../config/schema.ts";
import { Metrics } from "../metrics/registry.ts";
import { buildEngine } from "../research/build-engine.ts";
import { warnSetup } from "../research/setup-warnings.ts";
import { openStore } from "../store/open.ts";
import { createLogger, type Logger } from "../util/logger.ts";
import { type RunningServer, startServer } from "./server.ts";
import { logSharedCollections } from "./shared-collections-notice.ts";
import { startTracing } from "./tracing/otlp-setup.ts";

/**
 * The composition root: the whole server built from its configuration alone — the store, the
 * metrics, the engine over both, then `startServer`, which wires the rest (the lease, the run
 * service, the import queue, the app) and listens. `serve` calls this and only handles the
 * process (its signals and exit); tests and benchmarks that bring an engine or store of their
 * own call `startServer` (docs/decisions/0134-one-composition-root.md).
 *
 * `started` is the process's hold on the server (serve: its signal handlers), given it as soon
 * as it listens and before the start-up notice, so a stop asked after the notice is a drain.
 */
export async function composeServer(
  cfg: Config,
  logger: Logger = createLogger(cfg.LOG_LEVEL),
  started: (server: RunningServer) => void = () => {},
  /** The build's version, for /metrics (the command knows it: package.json's). */
  version?: string,
): Promise<RunningServer> {
  let server: RunningServer | undefined;
  // Built before the server, for the engine to count upstream calls: it reads the runs in flight once there are any.
  const metrics = new Metrics(() => server?.deps.runs.inFlight ?? 0, version);
  // One store for the server and the engine's `local` provider: the collections live in it.
  const store = await openStore(cfg, { checkpointThread: true, logger });
  const engine = buildEngine(cfg, logger, metrics, undefined, store);
  // Nothing of OpenTelemetry is loaded unless a collector is configured (README "Traces").
  const stopTracing = await startTracing(cfg, metrics.traceSpansDropped, version);
  const running = startServer({ config: cfg, engine, store, logger, metrics });
  // The stop flushes the spans still queued last, its wait bounded by the export timeout.
  server = stopTracing
    ? { ...running, stop: (graceMs?: number) => running.stop(graceMs).finally(stopTracing) }
    : running;
  started(server);
  // What is not configured yet, said once it listens; the databases' probe answers in the background.
  void warnSetup(cfg, engine, logger).catch((e: unknown) => logger.error("setup_unchecked", { error: String(e) }));
  // A store that can't answer it yet is logged, never a reason not to serve.
  await logSharedCollections(store, cfg, logger).catch((e: unknown) =>
    logger.error("shared_collections_unread", { error: String(e) }),
  );
  return server;
}
