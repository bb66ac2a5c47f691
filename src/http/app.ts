import { Elysia } from "elysia";
import type { AppDeps } from "./deps.ts";
import { authRoutes } from "./auth-routes.ts";
import { oidcRoutes } from "./oidc-routes.ts";
import { consoleRoutes } from "./console-routes.ts";
import { isCrossSiteWrite } from "./cross-site.ts";
import { QUERY_PATHS, queryApp } from "./query-routes.ts";
import { researchRoutes } from "./research-routes.ts";
import { errorResponse, json, mapError } from "./responses.ts";
import { AppError } from "../errors.ts";
import { setClientIp } from "./client-ip.ts";
import { openApiDocument } from "./openapi.ts";
import { apiReferenceHtml } from "./api-reference.ts";
import { routeLabel } from "../metrics/registry.ts";
import { publicUrl } from "../config/load.ts";

/** Everything but the query endpoints: accounts, the Console, health. No CORS here. */
export function mainApp(deps: AppDeps) {
  return new Elysia({ name: "main-app" })
    .onRequest(({ request }) => {
      if (isCrossSiteWrite(request)) {
        return errorResponse(new AppError("CROSS_SITE_REQUEST", "cross-site writes with the session cookie are refused"));
      }
    })
    .onError(({ code, error }) => {
      const err = mapError(code, error);
      if (err.code === "internal_error") deps.logger.error("route_error", { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      return errorResponse(err);
    })
    .get("/healthz", () => json({ status: "ok" }))
    .get("/openapi.json", () => json(openApiDocument(publicUrl(deps.config))))
    .get("/docs", () => new Response(apiReferenceHtml(publicUrl(deps.config)), { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" } }))
    .get("/metrics", () => new Response(deps.metrics.render(), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } }))
    .use(authRoutes(deps))
    .use(oidcRoutes(deps))
    .use(consoleRoutes(deps))
    .use(researchRoutes(deps));
}

/** The path of an absolute URL without a URL object (this runs on every request). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const q = url.indexOf("?", start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}

/** Bun's server object, the part we use. */
export interface ServerLike { timeout(request: Request, seconds: number): void; requestIP(request: Request): { address: string } | null }

/**
 * The server's fetch: routes the query endpoints to their own app (CORS scoped to them),
 * everything else to the main app; logs one line per request without secrets.
 */
export function createFetch(deps: AppDeps) {
  const q = queryApp(deps);
  const m = mainApp(deps);
  return async (request: Request, server?: ServerLike): Promise<Response> => {
    const t0 = performance.now();
    const path = pathOf(request.url);
    const isQuery = QUERY_PATHS.has(path) || path.startsWith("/api/v1/research");
    if (server) setClientIp(request, server.requestIP(request)?.address);
    // Runs hold the connection for minutes; our own deadline (RUN_TIMEOUT_MS) bounds them.
    if (isQuery && request.method === "POST") server?.timeout(request, 0);
    const res = await (QUERY_PATHS.has(path) ? q : m).handle(request);
    deps.metrics.requests.incRoute(routeLabel(path), res.status);
    deps.logger.info("request", {
      method: request.method, path, status: res.status, latency_ms: Math.round(performance.now() - t0),
      request_id: res.headers.get("x-request-id") ?? undefined,
    });
    return res;
  };
}
