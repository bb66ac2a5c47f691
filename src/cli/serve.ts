import type { Config } from "../config/schema.ts";
import { composeServer } from "../server/compose.ts";
import type { RunningServer } from "../server/server.ts";
import { createLogger, type Logger } from "../util/logger.ts";
import { closeAllPools } from "../util/worker-pool/pool-census.ts";
import { VERSION } from "./version.ts";

/** How long a stop waits for the runs in flight before it closes the server anyway. */
const STOP_GRACE_MS = 25_000;

/** `serve`: runs until SIGTERM/SIGINT, then drains running runs (bounded) and exits. */
export async function serveCommand(cfg: Config): Promise<void> {
  const logger = createLogger(cfg.LOG_LEVEL);
  await composeServer(cfg, logger, (server) => stopOnSignals(server, logger), VERSION);
}

function stopOnSignals(server: RunningServer, logger: Logger): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting_down", { signal, runs_in_flight: server.deps.runs.inFlight });
    await server.stop(STOP_GRACE_MS);
    // Every thread ended before the last line: one still alive holds process.exit until it can
    // be stopped (docs/decisions/0150-healthz-in-a-drain-and-a-prompt-exit.md).
    const threads = await closeAllPools();
    logger.info("stopped", { threads });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
