import { Elysia } from "elysia";
import type { Account } from "../auth/accounts.ts";
import { sessionAccount } from "../auth/session-cookie.ts";
import { AppError } from "../contract/errors.ts";
import { setClientIp } from "../http/client-ip.ts";
import { offerHold } from "../http/connection-hold.ts";
import type { Route } from "../http/route.ts";
import { routeMatcher } from "../http/route-match.ts";
import { secure } from "../http/security-headers.ts";
import type { ServerLike } from "../http/server-like.ts";
import { SHUTTING_DOWN } from "../runs/service.ts";
import { apiDocument } from "./api-document.ts";
import { gateBody, gatedAccount } from "./body-gate.ts";
import { isCrossSiteWrite, originOf } from "./cross-site.ts";
import type { AppDeps } from "./deps.ts";
import { type NativeRoute, nativeRoutes } from "./native-routes.ts";
import { errorAnswer, observer } from "./pipeline.ts";
import { builtRoutes } from "./routes.ts";
import { beginRequestSpan } from "./tracing/server-span.ts";

/** Every route but the `key` ones, registered on Elysia as declared (routing, params, the body's schema). */
export function mainApp(
  deps: AppDeps,
  routes: readonly Route<Account>[] = builtRoutes({ ...deps, document: apiDocument }),
) {
  const app = new Elysia({ name: "main-app" }).onError(({ code, error }) =>
    errorAnswer(deps, undefined, error, 0, {}, code),
  );
  for (const r of routes) {
    if (r.auth === "key") continue;
    app.route(
      r.method,
      r.path,
      ({ request, params, body }) =>
        r.handle({ request, params, body, account: gatedAccount<Account>(request), headers: {} }),
      {
        ...(r.schema ? { body: r.schema } : {}),
        ...(r.response ? { response: r.response } : {}),
        ...(r.body === "own" ? { parse: "none" } : {}),
        detail: r.operation,
      },
    );
  }
  return app;
}

/** The path of an absolute URL without a URL object (this runs on every request). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const q = url.indexOf("?", start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}

/** What the server needs: native routes for the `key` routes, a fetch for everything else. */
export interface AppHandlers {
  /** Bun.serve `routes` entries for the `key` routes (/api/query and /api/query/stream). */
  queryRoutes: Record<`/${string}`, NativeRoute>;
  fetch: (request: Request, server?: ServerLike) => Promise<Response>;
}

/**
 * The `key` routes run as plain handlers on Bun's router (native-routes.ts); everything else
 * goes through the gate and the main Elysia app, both fed by the one route table (routes.ts).
 * `fetch` also dispatches the native paths, for callers without Bun's router.
 */
export function createHandlers(deps: AppDeps): AppHandlers {
  const observe = observer(deps);
  const routes = builtRoutes({ ...deps, document: apiDocument });
  const q = nativeRoutes(deps, routes, observe);
  const m = mainApp(deps, routes);
  const matcher = routeMatcher(routes);
  const session = (request: Request) => sessionAccount(deps.store, request);
  const noServer: ServerLike = { timeout() {}, requestIP: () => null };
  const ownOrigin = originOf(deps.config.PUBLIC_URL);
  const fetch = async (request: Request, server?: ServerLike): Promise<Response> => {
    const path = pathOf(request.url);
    const native = q[path as `/${string}`];
    if (native) return native(request, server ?? noServer);
    const t0 = performance.now();
    beginRequestSpan(request, path);
    const peer = server?.requestIP(request)?.address;
    setClientIp(request, peer);
    if (server) offerHold(request, server);
    let res: Response;
    try {
      const declared = matcher.match(request.method, path);
      if (deps.runs.draining && !declared?.duringDrain) throw SHUTTING_DOWN;
      if (isCrossSiteWrite(request, ownOrigin))
        throw new AppError("CROSS_SITE_REQUEST", "cross-site writes with the session cookie are refused");
      const gated = await gateBody(request, declared, session, deps.bodyTimeoutMs);
      if (gated !== request) setClientIp(gated, peer);
      res = await m.handle(gated);
    } catch (e) {
      res = errorAnswer(deps, undefined, e, t0);
    }
    // README "The API": X-Request-Id on every response (the run routes set their run's id).
    if (!res.headers.has("x-request-id")) res.headers.set("x-request-id", crypto.randomUUID());
    secure(res);
    observe(request, path, t0, res);
    return res;
  };
  return { queryRoutes: q, fetch };
}
