import type { Config } from "../config/schema.ts";
import { Metrics } from "../metrics/registry.ts";
import { buildEngine } from "../research/build-engine.ts";
import { startServer } from "../server/server.ts";
import { logSharedCollections } from "../server/shared-collections-notice.ts";
import { openStore } from "../store/open.ts";
import { createLogger } from "../util/logger.ts";

/** `serve`: runs until SIGTERM/SIGINT, then drains running runs (bounded) and exits. */
export async function serveCommand(cfg: Config): Promise<void> {
  const logger = createLogger(cfg.LOG_LEVEL);
  let server: ReturnType<typeof startServer> | undefined;
  const metrics = new Metrics(() => server?.deps.runs.inFlight ?? 0);
  // One store for the server and the engine's `local` provider: the collections live in it.
  const store = await openStore(cfg, { checkpointThread: true });
  server = startServer({
    config: cfg,
    engine: buildEngine(cfg, logger, metrics, undefined, store),
    store,
    logger,
    metrics,
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting_down", { signal, runs_in_flight: server!.deps.runs.inFlight });
    await server!.stop(25_000);
    logger.info("stopped", {});
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  await logSharedCollections(store, cfg, logger).catch((e: unknown) =>
    logger.error("shared_collections_unread", { error: String(e) }),
  );
}
