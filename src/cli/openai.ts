import type { McpBackend } from "../mcp/backend.ts";
import { remoteBackend } from "../mcp/remote-backend.ts";
import { startFront } from "../openai/front-server.ts";
import { createLogger, type Logger } from "../util/logger.ts";
import { closeAllPools } from "../util/worker-pool/pool-census.ts";
import { type CommandInput, UsageError } from "./command.ts";
import { localOf, serverBase } from "./mcp.ts";
import { VERSION } from "./version.ts";

/** How long a stop waits for the runs and streams in flight before it closes anyway. */
const STOP_GRACE_MS = 25_000;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

function portOf(raw: string | undefined): number {
  if (raw === undefined) return 3001;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535)
    throw new UsageError(`--port must be a port number (0 to 65535), not ${JSON.stringify(raw)}`);
  return port;
}

/** A backend per call: with --server, one that presents the caller's own key; locally, one for all. */
async function backends(input: CommandInput, server: string | undefined, logger: Logger) {
  if (server)
    return {
      backendFor: (apiKey: string | undefined): McpBackend =>
        remoteBackend({ base: server, apiKey, userAgent: `research-query-openai/${VERSION}` }),
      close: async () => {},
    };
  const backend = await localOf(input.cfg, logger, [], "openai");
  return { backendFor: () => backend, close: () => backend.close() };
}

/**
 * `openai [--server URL] [--host H] [--port P]`: OpenAI's chat completions for chat clients
 * (README "OpenAI-compatible front: research in chat clients") until SIGTERM or SIGINT, then
 * a drain. Logs go to stdout as `serve`'s do.
 */
export async function openaiCommand(input: CommandInput): Promise<null> {
  const { cfg, options } = input;
  const server = typeof options.server === "string" ? serverBase(options.server) : undefined;
  const port = portOf(typeof options.port === "string" ? options.port : undefined);
  const host = typeof options.host === "string" ? options.host : "127.0.0.1";
  if (!host.trim()) throw new UsageError("--host must be an address to listen on, such as 127.0.0.1 or 0.0.0.0");
  const logger = createLogger(cfg.LOG_LEVEL);
  const { backendFor, close } = await backends(input, server, logger);
  // Threat: local mode asks for no key, so anyone who reaches the port runs research on this machine's account.
  if (!server && !LOOPBACK.has(host))
    logger.warn("openai_open_local", {
      host,
      hint: "local mode asks for no key: anyone who reaches this address runs research here; use --server for a team",
    });
  const front = startFront({ host, port, mode: server ? "remote" : "local", backendFor, logger });
  logger.info("listening", {
    url: front.url,
    mode: server ? "remote" : "local",
    ...(server ? { server: new URL(server).origin } : {}),
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting_down", { signal });
    await front.stop(STOP_GRACE_MS);
    await close();
    const threads = await closeAllPools();
    logger.info("stopped", { threads });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  return null;
}
