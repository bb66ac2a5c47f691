import { AppError } from "../../contract/errors.ts";
import type { ApiPaths } from "../../contract/openapi-operations.ts";
import { runOp } from "../../contract/openapi-runs.ts";
import { offerHold } from "../../http/connection-hold.ts";
import { errorResponse, json } from "../../http/responses.ts";
import { SECURITY_HEADERS } from "../../http/security-headers.ts";
import type { ServerLike } from "../../http/server-like.ts";
import { presentedKey } from "../../keys/api-keys.ts";
import { refusalEnvelope } from "../envelope.ts";
import { type RunHttp, runResponse } from "./run-response.ts";

/** The OpenAPI operations of the two routes below (plain handlers: no Elysia `detail` to carry them). */
export const QUERY_OPERATIONS: ApiPaths = {
  "/api/query": {
    post: runOp("key", false, "query", "Run a research query; holds the connection until the run finishes"),
  },
  "/api/query/stream": {
    post: runOp("key", true, "queryStream", "Run a research query, streamed as Server-Sent Events"),
  },
};

export const QUERY_PATHS = new Set(["/api/query", "/api/query/stream"]);

/**
 * CORS for the two public query endpoints only: any origin, never credentials (keys belong
 * in headers, not cookies), so a browser page can call the API but never ride a session.
 */
const QUERY_CORS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "X-Request-Id, Retry-After, Idempotent-Replayed",
};

const PREFLIGHT: Readonly<Record<string, string>> = {
  ...QUERY_CORS,
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "Authorization, X-Api-Key, Content-Type, Idempotency-Key, Last-Event-ID",
  "access-control-max-age": "600",
  vary: "Access-Control-Request-Method, Access-Control-Request-Headers",
};

/** Called once per answered request (logs and metrics); the server wires it. */
export type Observe = (request: Request, path: string, startedAt: number, res: Response) => void;

type Route = (req: Request, server: ServerLike) => Response | Promise<Response>;

/**
 * POST /api/query and /api/query/stream as plain handlers for Bun's native route table.
 * They are the hot path (every API call, every refusal) and need neither Elysia's body
 * parsing (runs/http/query-body.ts reads the body) nor its hooks: going through Elysia cost
 * more than the handler itself (docs/decisions/0010-query-endpoints-native-routes.md, test/bench/RESULTS.md §2).
 */
export function queryRoutes(deps: RunHttp, observe: Observe): Record<"/api/query" | "/api/query/stream", Route> {
  const crashed = (e: unknown, t0: number): Response => {
    deps.logger.error("query_route_error", { error: String(e) });
    return json(
      refusalEnvelope(crypto.randomUUID(), t0, [{ code: "internal_error", message: "internal error" }]),
      500,
      QUERY_CORS,
    );
  };
  const route =
    (path: "/api/query" | "/api/query/stream", mode: "json" | "stream"): Route =>
    (request, server) => {
      const t0 = performance.now();
      if (request.method === "POST") {
        offerHold(request, server);
        let res: Response | Promise<Response>;
        try {
          res = runResponse(
            deps,
            request,
            mode,
            { kind: "key", presented: presentedKey(request.headers) },
            path,
            QUERY_CORS,
          );
        } catch (e) {
          res = crashed(e, t0);
        }
        // A refusal comes back as a Response: answered without a promise in between.
        if (res instanceof Response) {
          observe(request, path, t0, res);
          return res;
        }
        return res
          .catch((e) => crashed(e, t0))
          .then((r) => {
            observe(request, path, t0, r);
            return r;
          });
      }
      const res =
        request.method === "OPTIONS"
          ? new Response(null, { status: 204, headers: PREFLIGHT })
          : errorResponse(new AppError("not_found", "use POST", 404, { ...QUERY_CORS, allow: "POST, OPTIONS" }));
      observe(request, path, t0, res);
      return res;
    };
  return { "/api/query": route("/api/query", "json"), "/api/query/stream": route("/api/query/stream", "stream") };
}
