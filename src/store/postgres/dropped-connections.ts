import { createLogger, type Logger, toStderr } from "../../util/logger.ts";

/**
 * Threat: a PostgreSQL blip (a restart, a failover, a network partition) ends the process.
 * Bun's SQL client can reject a promise that no caller holds when a pooled connection drops
 * mid-handshake or between statements, and an unhandled rejection ends a Bun process. Every
 * statement of ours is awaited by its caller, so such a rejection is the client's own and
 * carries nothing to act on: it is logged once per drop, and the outage is handled where the
 * callers see it (README "PostgreSQL"). Any other unhandled rejection still ends the process,
 * as it did before: it is thrown again from here.
 */

/** The client's codes for a connection that went away, never for a statement that failed. */
const DROPPED = new Set([
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_FAILED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
]);

export const isDroppedConnection = (reason: unknown): boolean =>
  typeof reason === "object" && reason !== null && DROPPED.has(String((reason as { code?: unknown }).code));

let logger: Logger | undefined;

/** Installs the guard once per process; the first logger given is the one it writes to (stderr otherwise). */
export function absorbDroppedConnections(log?: Logger): void {
  if (logger) return;
  logger = log ?? createLogger("warn", toStderr);
  process.on("unhandledRejection", (reason) => {
    if (!isDroppedConnection(reason)) throw reason;
    logger?.warn("postgres_connection_dropped", { error: String(reason) });
  });
}
