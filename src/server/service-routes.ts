import { Type as T } from "@sinclair/typebox";
import type { Account } from "../auth/accounts.ts";
import { publicUrl } from "../config/load.ts";
import type { OpenApiDocument } from "../contract/openapi.ts";
import { json as jsonAnswer, publicOp, retry, text } from "../contract/openapi-operations.ts";
import { json } from "../http/responses.ts";
import { routes } from "../http/route.ts";
import { SHUTTING_DOWN } from "../runs/service.ts";
import { apiReferenceHtml } from "./api-reference.ts";
import type { AppDeps } from "./deps.ts";
import { healthProbe } from "./health.ts";

// Each route's OpenAPI operation, beside it: its summary and answers are this one object.
const HEALTH = publicOp("health", "Service", "Health", {
  200: jsonAnswer(
    "Health",
    "the process answers once the database is open and migrated; `database` says whether it answers now",
  ),
  503: jsonAnswer(
    "Health",
    '`status: "draining"`: the server is shutting down (its runs in flight finish, new calls are refused); route traffic elsewhere and retry after Retry-After',
    retry,
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
/**
 * Health, the OpenAPI document, the reference page rendered from it, and metrics. The
 * document comes from the composition root (api-document.ts), which knows every route.
 */
export const SERVICE_ROUTES = routes<Account>()(
  {
    health: { method: "GET", path: "/healthz", auth: "none", body: "none", operation: HEALTH, duringDrain: true },
    openApi: { method: "GET", path: "/openapi.json", auth: "none", body: "none", operation: OPEN_API },
    apiReference: { method: "GET", path: "/docs", auth: "none", body: "none", operation: API_REFERENCE },
    metrics: { method: "GET", path: "/metrics", auth: "none", body: "none", operation: METRICS },
  },
  (deps: AppDeps & { document: (serverUrl: string) => OpenApiDocument }) => {
    const health = healthProbe(
      deps.store,
      () => deps.runs.unrecorded,
      () => deps.runs.draining,
    );
    const document = () => deps.document(publicUrl(deps.config));
    return {
      health: async () => {
        const h = await health();
        // A load balancer's probe: 503 takes the instance out of rotation while it drains.
        return h.status === "draining" ? json(h, 503, { ...SHUTTING_DOWN.headers }) : json(h);
      },
      openApi: () => json(document()),
      apiReference: () =>
        new Response(apiReferenceHtml(document()), {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
          },
        }),
      metrics: async () => {
        // A database away leaves the upload series out: the scrape still answers.
        const uploads = await Promise.resolve()
          .then(() => deps.store.uploads.statusCounts())
          .catch(() => null);
        return new Response(deps.metrics.render(uploads), {
          headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
        });
      },
    };
  },
);
