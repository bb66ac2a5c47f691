import type { Account } from "../auth/accounts.ts";
import { AppError } from "../contract/errors.ts";
import { errorResponse, json, mapError } from "../http/responses.ts";
import type { Route } from "../http/route.ts";
import { routeLabeler } from "../metrics/registry.ts";
import { refusalEnvelope } from "../runs/envelope.ts";
import { asUnavailable } from "../store/unreachable.ts";
import { apiPaths } from "./api-document.ts";
import type { AppDeps } from "./deps.ts";
import { endRequestSpan } from "./tracing/server-span.ts";

// What both request paths share (the native one of the `key` routes and Elysia's of the
// rest): one observation and one mapping of what a route threw to its answer.

/** Called once per answered request (logs and metrics). */
export type Observe = (request: Request, path: string, startedAt: number, res: Response) => void;

/** Logs one line per request (without secrets) and counts it by its route's document path. */
export function observer(deps: AppDeps): Observe {
  const routeLabel = routeLabeler(Object.keys(apiPaths()));
  return (request, path, t0, res) => {
    const route = routeLabel(path);
    deps.metrics.requests.incRoute(route, res.status);
    endRequestSpan(request, route, res);
    // Reading a Response's headers makes Bun build a Headers object: only when logging.
    if (!deps.logger.enabled("info")) return;
    deps.logger.info("request", {
      method: request.method,
      path,
      status: res.status,
      latency_ms: Math.round(performance.now() - t0),
      request_id: res.headers.get("x-request-id") ?? undefined,
    });
  };
}

/**
 * The answer to what a route (or the pipeline before it) threw. A `key` route answers the
 * run contract's way, an envelope with its CORS (README "The API"); the others the error body.
 * Only an unexpected failure is logged, without the request (it may carry secrets).
 */
export function errorAnswer(
  deps: AppDeps,
  route: Pick<Route<Account>, "auth"> | undefined,
  thrown: unknown,
  t0: number,
  headers: Readonly<Record<string, string>> = {},
  /** Elysia's error code when the route itself threw (then an internal error is logged). */
  elysiaCode?: string | number,
): Response {
  if (route?.auth === "key") {
    deps.logger.error("query_route_error", { error: String(thrown) });
    const env = refusalEnvelope(crypto.randomUUID(), t0, [{ code: "internal_error", message: "internal error" }]);
    return json(env, 500, headers);
  }
  const err = mapError(elysiaCode ?? "", asUnavailable(thrown));
  if (err.code === "internal_error" && elysiaCode !== undefined)
    deps.logger.error("route_error", {
      error: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown),
    });
  return errorResponse(err);
}

/** A wrong method on a route's path: 404 naming the ones it takes. */
export const wrongMethod = (methods: readonly string[], headers: Readonly<Record<string, string>>): Response =>
  errorResponse(
    new AppError("not_found", `use ${methods.join(", ")}`, 404, {
      ...headers,
      allow: [...methods, "OPTIONS"].join(", "),
    }),
  );
