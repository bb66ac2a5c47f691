import type { Account } from "../auth/accounts.ts";
import { AUTH_ROUTES } from "../auth/auth-routes.ts";
import { LEAVE_ROUTES } from "../auth/leave/leave-routes.ts";
import { OIDC_ROUTES } from "../auth/oidc/oidc-routes.ts";
import { SESSION_ROUTES } from "../auth/session-route.ts";
import { COLLECTION_ROUTES } from "../collections/collection-routes.ts";
import { DOCUMENT_ROUTES } from "../collections/document-routes.ts";
import { UPLOAD_ROUTES } from "../collections/uploads/upload-routes.ts";
import { AUDIT_ROUTES } from "../console/audit-routes.ts";
import { CONSOLE_ROUTES } from "../console/console-routes.ts";
import type { OpenApiDocument } from "../contract/openapi.ts";
import type { Declaration, Route, RouteSet } from "../http/route.ts";
import { KEY_ROUTES } from "../keys/key-routes.ts";
import { QUERY_ROUTES } from "../runs/http/query-routes.ts";
import { RESEARCH_ROUTES } from "../runs/http/research-routes.ts";
import type { AppDeps } from "./deps.ts";
import { SERVICE_ROUTES } from "./service-routes.ts";

/** What the routes are built from: the app's deps, and the document (built from this table). */
export type RouteDeps = AppDeps & { document: (serverUrl: string) => OpenApiDocument };

/**
 * Every route of the server, each routes file's list in turn: the one table Elysia's
 * registration, the body gate, the OpenAPI document (its `paths` in this order) and /metrics'
 * labels are all fed from. A new routes file adds its list here, and nowhere else.
 */
const ROUTE_SETS: readonly RouteSet<Account, RouteDeps>[] = [
  QUERY_ROUTES,
  KEY_ROUTES,
  CONSOLE_ROUTES,
  AUDIT_ROUTES,
  COLLECTION_ROUTES,
  DOCUMENT_ROUTES,
  UPLOAD_ROUTES,
  AUTH_ROUTES,
  LEAVE_ROUTES,
  SESSION_ROUTES,
  OIDC_ROUTES,
  RESEARCH_ROUTES,
  SERVICE_ROUTES,
];

/** Every declaration, in the table's order (no deps needed: the document is static). */
export const declaredRoutes = (): Declaration[] => ROUTE_SETS.flatMap((s) => s.declared);

/** Every route with its handler, over the app's deps. */
export const builtRoutes = (deps: RouteDeps): Route<Account>[] => ROUTE_SETS.flatMap((s) => s.build(deps));
