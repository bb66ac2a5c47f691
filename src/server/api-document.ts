import { type OpenApiDocument, openApiDocument } from "../contract/openapi.ts";
import type { ApiPaths } from "../contract/openapi-operations.ts";
import { documentPath } from "../http/route.ts";
import { declaredRoutes } from "./routes.ts";

/**
 * Every operation by path, from the route table (routes.ts): the document's `paths` in the
 * table's order (a path's methods in their routes' order), and the patterns /metrics labels by.
 */
export function apiPaths(): ApiPaths {
  const out: ApiPaths = {};
  for (const r of declaredRoutes()) {
    const path = documentPath(r.path);
    out[path] = { ...out[path], [r.method.toLowerCase()]: r.operation };
  }
  return out;
}

/** The OpenAPI document of every route (/openapi.json, /docs). */
export const apiDocument = (serverUrl: string): OpenApiDocument => openApiDocument(serverUrl, apiPaths());
