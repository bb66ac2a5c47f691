import type { AuthDeps } from "../auth/auth-routes.ts";
import type { UploadDeps } from "../collections/uploads/upload-routes.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { RunHttp } from "../runs/http/run-response.ts";

/**
 * Everything the process wires once (server.ts) and hands to the routes. Each feature's routes
 * declare only the part they use (AuthDeps, RunHttp, `{ store }`…), so no feature imports the
 * server; this is their union. Tests build it with their own engine and config.
 */
export interface AppDeps extends AuthDeps, RunHttp, UploadDeps {
  metrics: Metrics;
}
