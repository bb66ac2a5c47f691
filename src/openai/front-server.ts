import type { McpBackend } from "../mcp/backend.ts";
import type { Logger } from "../util/logger.ts";
import { chatCompletions } from "./chat-route.ts";
import { modelList } from "./chat-shapes.ts";
import { errorResponse, openAiError } from "./openai-errors.ts";

export interface FrontOptions {
  host: string;
  port: number;
  mode: McpBackend["mode"];
  backendFor(apiKey: string | undefined): McpBackend;
  logger: Logger;
  /** Between two keep-alive comments of a stream (default 15 s). */
  keepAliveMs?: number;
  /** Bun's idle timeout for calls that are not runs (default 10 s); a run's call lifts it. */
  idleTimeoutSec?: number;
}

export interface RunningFront {
  url: string;
  /** Refuses new calls, waits for the runs and streams in flight (at most `graceMs`), then closes. */
  stop(graceMs: number): Promise<void>;
}

interface FrontState {
  draining: boolean;
  inFlight: Set<Promise<unknown>>;
  created: number;
}

type Handler = (req: Request, server: Bun.Server<undefined>) => Response | Promise<Response>;

/** The front's routes, by method and path: everything else is OpenAI's 404. */
function routes(o: FrontOptions, state: FrontState): Record<string, Handler> {
  return {
    "GET /healthz": () =>
      Response.json(
        { status: state.draining ? "draining" : "ok", mode: o.mode, in_flight: state.inFlight.size },
        { status: state.draining ? 503 : 200, headers: { "cache-control": "no-store" } },
      ),
    "GET /v1/models": () => Response.json(modelList(state.created)),
    "POST /v1/chat/completions": (req, server) =>
      chatCompletions(req, {
        backendFor: o.backendFor,
        keepAliveMs: o.keepAliveMs ?? 15_000,
        logger: o.logger,
        hold: (r) => server.timeout(r, 0),
        track: (p) => {
          const settled = p.then(
            () => {},
            () => {},
          );
          state.inFlight.add(settled);
          void settled.then(() => state.inFlight.delete(settled));
        },
      }),
  };
}

/**
 * `research-query openai`: OpenAI's chat completions in front of the run service or a server
 * (README "OpenAI-compatible front: research in chat clients"). Its own process: keys are
 * accepted on the server's query endpoints only, and this front is a client of them.
 */
export function startFront(o: FrontOptions): RunningFront {
  const state: FrontState = { draining: false, inFlight: new Set(), created: Math.floor(Date.now() / 1000) };
  const table = routes(o, state);
  const server = Bun.serve({
    hostname: o.host,
    port: o.port,
    idleTimeout: o.idleTimeoutSec ?? 10,
    fetch(req, srv) {
      const path = new URL(req.url).pathname.replace(/\/+$/, "") || "/";
      const route = table[`${req.method} ${path}`];
      if (state.draining && path !== "/healthz")
        return errorResponse(openAiError("service_unavailable", "this front is stopping; try again", "5"));
      if (!route)
        return errorResponse(
          openAiError(
            "not_found",
            `no such endpoint: ${req.method} ${path} (this front serves /v1/models and /v1/chat/completions)`,
          ),
        );
      return route(req, srv);
    },
    error(e) {
      o.logger.error("front_error", { error: String(e) });
      return errorResponse(openAiError("internal_error", "the front failed unexpectedly; its log has the details"));
    },
  });
  const url = `http://${o.host.includes(":") ? `[${o.host}]` : o.host}:${server.port}`;
  return {
    url,
    async stop(graceMs) {
      state.draining = true;
      // Bun's own stop waits for the responses being written, streams included.
      const stopped = server.stop(false);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.all([stopped, ...state.inFlight]), grace]);
      clearTimeout(timer);
      await server.stop(true);
    },
  };
}
