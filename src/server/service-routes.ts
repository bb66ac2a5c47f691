import { Type as T } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { publicUrl } from "../config/load.ts";
import type { OpenApiDocument } from "../contract/openapi.ts";
import { type ApiPaths, json as jsonAnswer, publicOp, text } from "../contract/openapi-operations.ts";
import { json } from "../http/responses.ts";
import { apiReferenceHtml } from "./api-reference.ts";
import type { AppDeps } from "./deps.ts";
import { healthProbe } from "./health.ts";

// Each route's OpenAPI operation, beside it: its summary and answers are this one object.
const HEALTH = publicOp("health", "Service", "Health", {
  200: jsonAnswer(
    "Health",
    "the process answers once the database is open and migrated; `database` says whether it answers now",
  ),
});
const OPEN_API = publicOp("openApi", "Service", "This document", {
  200: jsonAnswer(T.Object({}, { additionalProperties: true }), "the OpenAPI 3.1 document"),
});
const API_REFERENCE = publicOp("apiReference", "Service", "A readable API reference rendered from this document", {
  200: text("text/html", "the reference page; no script"),
});
const METRICS = publicOp("metrics", "Service", "Prometheus metrics", {
  200: text("text/plain", "Prometheus text exposition format 0.0.4"),
});
export const SERVICE_OPERATIONS: ApiPaths = {
  "/healthz": { get: HEALTH },
  "/openapi.json": { get: OPEN_API },
  "/docs": { get: API_REFERENCE },
  "/metrics": { get: METRICS },
};

/**
 * Health, the OpenAPI document, the reference page rendered from it, and metrics. The
 * document comes from the composition root (api-document.ts), which knows every route.
 */
export function serviceRoutes(deps: AppDeps, document: (serverUrl: string) => OpenApiDocument) {
  const health = healthProbe(deps.store, () => deps.runs.unrecorded);
  return new Elysia({ name: "service-routes" })
    .get("/healthz", async () => json(await health()), { detail: HEALTH })
    .get("/openapi.json", () => json(document(publicUrl(deps.config))), { detail: OPEN_API })
    .get(
      "/docs",
      () =>
        new Response(apiReferenceHtml(document(publicUrl(deps.config))), {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
          },
        }),
      { detail: API_REFERENCE },
    )
    .get(
      "/metrics",
      () =>
        new Response(deps.metrics.render(), {
          headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
        }),
      { detail: METRICS },
    );
}
