import { Elysia } from "elysia";
import { authRoutes } from "../auth/auth-routes.ts";
import { oidcRoutes } from "../auth/oidc/oidc-routes.ts";
import { collectionRoutes } from "../collections/collection-routes.ts";
import { documentRoutes } from "../collections/document-routes.ts";
import { uploadRoutes } from "../collections/uploads/upload-routes.ts";
import { consoleRoutes } from "../console/console-routes.ts";
import { AppError } from "../contract/errors.ts";
import { setClientIp } from "../http/client-ip.ts";
import { offerHold } from "../http/connection-hold.ts";
import { errorResponse, mapError } from "../http/responses.ts";
import { secure } from "../http/security-headers.ts";
import type { ServerLike } from "../http/server-like.ts";
import { keyRoutes } from "../keys/key-routes.ts";
import { routeLabeler } from "../metrics/registry.ts";
import { type Observe, QUERY_PATHS, queryRoutes } from "../runs/http/query-routes.ts";
import { researchRoutes } from "../runs/http/research-routes.ts";
import { SHUTTING_DOWN } from "../runs/service.ts";
import { asUnavailable } from "../store/unreachable.ts";
import { apiDocument, apiPaths } from "./api-document.ts";
import { gateBody } from "./body-gate.ts";
import { isCrossSiteWrite, originOf } from "./cross-site.ts";
import type { AppDeps } from "./deps.ts";
import { serviceRoutes } from "./service-routes.ts";

/** Everything but the query endpoints: accounts, the Console, health. No CORS here. */
export function mainApp(deps: AppDeps) {
  return new Elysia({ name: "main-app" })
    .onError(({ code, error }) => {
      const err = mapError(code, asUnavailable(error));
      if (err.code === "internal_error")
        deps.logger.error("route_error", {
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        });
      return errorResponse(err);
    })
    .use(serviceRoutes(deps, apiDocument))
    .use(authRoutes(deps))
    .use(oidcRoutes(deps))
    .use(keyRoutes(deps))
    .use(consoleRoutes(deps))
    .use(collectionRoutes(deps))
    .use(documentRoutes(deps))
    .use(uploadRoutes(deps))
    .use(researchRoutes(deps));
}

/** The path of an absolute URL without a URL object (this runs on every request). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const q = url.indexOf("?", start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}

/** Logs one line per request (without secrets) and counts it by route. */
function observer(deps: AppDeps): Observe {
  const routeLabel = routeLabeler(Object.keys(apiPaths()));
  return (request, path, t0, res) => {
    deps.metrics.requests.incRoute(routeLabel(path), res.status);
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

/** What the server needs: native routes for the query endpoints, a fetch for everything else. */
export interface AppHandlers {
  /** Bun.serve `routes` entries for /api/query and /api/query/stream. */
  queryRoutes: ReturnType<typeof queryRoutes>;
  fetch: (request: Request, server?: ServerLike) => Promise<Response>;
}

/**
 * The query endpoints run as plain handlers on Bun's router (the hot path, CORS scoped to
 * them); everything else goes through the main Elysia app. `fetch` also dispatches the
 * query paths, for callers without Bun's router.
 */
export function createHandlers(deps: AppDeps): AppHandlers {
  const observe = observer(deps);
  const q = queryRoutes(deps, observe);
  const m = mainApp(deps);
  const noServer: ServerLike = { timeout() {}, requestIP: () => null };
  const ownOrigin = originOf(deps.config.PUBLIC_URL);
  const fetch = async (request: Request, server?: ServerLike): Promise<Response> => {
    const path = pathOf(request.url);
    if (QUERY_PATHS.has(path)) return q[path as "/api/query"](request, server ?? noServer);
    const t0 = performance.now();
    const peer = server?.requestIP(request)?.address;
    setClientIp(request, peer);
    if (server) offerHold(request, server);
    let res: Response;
    try {
      if (deps.runs.draining) throw SHUTTING_DOWN;
      if (isCrossSiteWrite(request, ownOrigin))
        throw new AppError("CROSS_SITE_REQUEST", "cross-site writes with the session cookie are refused");
      const gated = await gateBody(deps.store, request, path, deps.bodyTimeoutMs);
      if (gated !== request) setClientIp(gated, peer);
      res = await m.handle(gated);
    } catch (e) {
      res = errorResponse(mapError("", asUnavailable(e)));
    }
    // README "The API": X-Request-Id on every response (the run routes set their run's id).
    if (!res.headers.has("x-request-id")) res.headers.set("x-request-id", crypto.randomUUID());
    secure(res);
    observe(request, path, t0, res);
    return res;
  };
  return { queryRoutes: q, fetch };
}
