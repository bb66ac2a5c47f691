import { localBackend, noDatabaseNote } from "../mcp/local-backend.ts";
import { createMcpServer } from "../mcp/mcp-server.ts";
import { remoteBackend } from "../mcp/remote-backend.ts";
import { LineTransport } from "../mcp/stdio-transport.ts";
import { warnSetup } from "../research/setup-warnings.ts";
import { createLogger, type Logger, toStderr } from "../util/logger.ts";
import { ownerOptions } from "./collection-args.ts";
import { type CommandInput, EXIT, UsageError } from "./command.ts";
import { openLocalRunsAs } from "./local-owners.ts";
import { VERSION } from "./version.ts";

/** Standard output carries the protocol alone: whatever a library prints goes to stderr. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

export function serverBase(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--server must be the server's http(s) address, not ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`--server must be an http(s) address, not ${url.protocol}`);
  return url.href;
}

/** The local run service as a backend (mcp and openai without --server); a missing database is warned as `<command>_no_database`. */
export async function localOf(cfg: CommandInput["cfg"], logger: Logger, emails: string[], command = "mcp") {
  const local = await openLocalRunsAs(cfg, logger, emails);
  // mcp: standard output is the protocol, so the client's own log (stderr) is where these can be seen.
  void warnSetup(cfg, local.engine, logger).catch(() => {});
  if (local.missingDatabase)
    logger.warn(`${command}_no_database`, { path: local.missingDatabase, fix: noDatabaseNote(local.missingDatabase) });
  return localBackend(cfg, local, local.owners);
}

/**
 * `mcp [--server URL] [--owner EMAIL]...`: an MCP server on stdin/stdout (README "MCP server: research from AI agents") until the client
 * closes standard input or the process is told to stop. Local mode runs the engine here as
 * `ask` does; with --server each research call is one call of that server's stream API with
 * the key in RQ_API_KEY.
 */
export async function mcpCommand(input: CommandInput): Promise<number> {
  const { cfg, options } = input;
  const server = typeof options.server === "string" ? serverBase(options.server) : undefined;
  const owners = ownerOptions(input);
  if (server && owners.length)
    throw new UsageError(
      "--owner is for local mode: with --server, the key's account decides which collections are read",
    );
  keepStdoutForProtocol();
  const logger = createLogger(cfg.LOG_LEVEL, toStderr);
  const apiKey = process.env.RQ_API_KEY?.trim() || undefined;
  if (server && !apiKey) logger.warn("mcp_no_key", { hint: "set RQ_API_KEY: the server refuses calls without a key" });
  const backend = server
    ? remoteBackend({ base: server, apiKey, userAgent: `research-query-mcp/${VERSION}` })
    : await localOf(cfg, logger, owners);
  const mcp = createMcpServer(backend, VERSION, logger);
  const closed = new Promise<void>((resolve) => {
    mcp.onclose = resolve;
  });
  mcp.onerror = (e) => logger.warn("mcp_protocol_error", { error: e.message });
  await mcp.connect(new LineTransport());
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => void mcp.close());
  logger.info("mcp_ready", { mode: backend.mode, ...(server ? { server: new URL(server).origin } : {}) });
  await closed;
  await backend.close();
  return EXIT.ok;
}
