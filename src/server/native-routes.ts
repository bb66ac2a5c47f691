import type { Account } from "../auth/accounts.ts";
import { offerHold } from "../http/connection-hold.ts";
import { KEY_CORS, preflightHeaders } from "../http/cors.ts";
import type { Route } from "../http/route.ts";
import type { ServerLike } from "../http/server-like.ts";
import type { AppDeps } from "./deps.ts";
import { errorAnswer, type Observe, wrongMethod } from "./pipeline.ts";
import { beginRequestSpan } from "./tracing/server-span.ts";

export type NativeRoute = (req: Request, server: ServerLike) => Response | Promise<Response>;

/**
 * The `key` routes as plain handlers for Bun's native route table, CORS-open: the hot path
 * (every API call, every refusal), so nothing runs that they don't need: no Elysia, no gate
 * (the run core checks the key, then reads the body itself), no cookie, no cross-site check
 * (no cookie rides them). A refusal comes back as a Response, answered without a promise in
 * between. docs/decisions/0010-query-endpoints-native-routes.md says why.
 */
export function nativeRoutes(deps: AppDeps, routes: readonly Route<Account>[], observe: Observe) {
  const out: Record<`/${string}`, NativeRoute> = {};
  const keyRoutes = routes.filter((r) => r.auth === "key");
  for (const path of new Set(keyRoutes.map((r) => r.path))) {
    if (path.includes(":"))
      throw new Error(`${path}: a key route has no path parameters (Bun's table matches it whole)`);
    const at = keyRoutes.filter((r) => r.path === path);
    const methods = at.map((r) => r.method);
    const preflight = preflightHeaders(methods);
    out[path as `/${string}`] = (request, server) => {
      const t0 = performance.now();
      beginRequestSpan(request, path);
      const route = at.find((r) => r.method === request.method);
      if (!route) {
        const res =
          request.method === "OPTIONS"
            ? new Response(null, { status: 204, headers: preflight })
            : wrongMethod(methods, KEY_CORS);
        observe(request, path, t0, res);
        return res;
      }
      offerHold(request, server);
      let res: Response | Promise<Response>;
      try {
        res = route.handle({ request, params: {}, body: undefined, account: undefined, headers: KEY_CORS }) as
          | Response
          | Promise<Response>;
      } catch (e) {
        res = errorAnswer(deps, route, e, t0, KEY_CORS);
      }
      if (res instanceof Response) {
        observe(request, path, t0, res);
        return res;
      }
      return res
        .catch((e) => errorAnswer(deps, route, e, t0, KEY_CORS))
        .then((r) => {
          observe(request, path, t0, r);
          return r;
        });
    };
  }
  return out;
}
