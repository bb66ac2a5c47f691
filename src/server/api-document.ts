import { AUTH_OPERATIONS } from "../auth/auth-routes.ts";
import { OIDC_OPERATIONS } from "../auth/oidc/oidc-routes.ts";
import { SESSION_OPERATIONS } from "../auth/session-route.ts";
import { COLLECTION_OPERATIONS } from "../collections/collection-routes.ts";
import { DOCUMENT_OPERATIONS } from "../collections/document-routes.ts";
import { UPLOAD_OPERATIONS } from "../collections/uploads/upload-routes.ts";
import { CONSOLE_OPERATIONS } from "../console/console-routes.ts";
import { type OpenApiDocument, openApiDocument } from "../contract/openapi.ts";
import type { ApiPaths } from "../contract/openapi-operations.ts";
import { KEY_OPERATIONS } from "../keys/key-routes.ts";
import { QUERY_OPERATIONS } from "../runs/http/query-routes.ts";
import { RESEARCH_OPERATIONS } from "../runs/http/research-routes.ts";
import { SERVICE_OPERATIONS } from "./service-routes.ts";

/** Route files' operations by path; two files may declare methods of one path (documents: list and upload). */
function byPath(...parts: ApiPaths[]): ApiPaths {
  const out: ApiPaths = {};
  for (const part of parts) for (const [path, ops] of Object.entries(part)) out[path] = { ...out[path], ...ops };
  return out;
}

/**
 * Every operation by path, as each route file declares its own beside its routes: the
 * document's `paths` in this order, and the route patterns /metrics labels by.
 */
export function apiPaths(): ApiPaths {
  return byPath(
    QUERY_OPERATIONS,
    KEY_OPERATIONS,
    CONSOLE_OPERATIONS,
    COLLECTION_OPERATIONS,
    DOCUMENT_OPERATIONS,
    UPLOAD_OPERATIONS,
    AUTH_OPERATIONS,
    SESSION_OPERATIONS,
    OIDC_OPERATIONS,
    RESEARCH_OPERATIONS,
    SERVICE_OPERATIONS,
  );
}

/** The OpenAPI document of every route (/openapi.json, /docs). */
export const apiDocument = (serverUrl: string): OpenApiDocument => openApiDocument(serverUrl, apiPaths());
