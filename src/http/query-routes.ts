import { cors } from "@elysiajs/cors";
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { refusalEnvelope } from "../runs/envelope.ts";
import type { AppDeps } from "./deps.ts";
import { handleQuery } from "./query-handler.ts";
import { json } from "./responses.ts";

export const QUERY_PATHS = new Set(["/api/query", "/api/query/stream"]);

/**
 * The two public query endpoints, in an Elysia app of their own so that CORS (any
 * origin, never credentials: keys belong in headers, not cookies) applies to them only.
 */
export function queryApp(deps: AppDeps) {
  return new Elysia({ name: "query-app" })
    .use(cors({
      origin: "*", credentials: false, methods: ["POST", "OPTIONS"],
      allowedHeaders: ["Authorization", "X-Api-Key", "Content-Type"], exposeHeaders: ["X-Request-Id"], maxAge: 600,
    }))
    .onError(({ error }) => {
      deps.logger.error("query_route_error", { error: String(error) });
      return json(refusalEnvelope(crypto.randomUUID(), performance.now(), [{ code: "internal_error", message: "internal error" }]), 500);
    })
    .post("/api/query", ({ request }) => handleQuery(deps, request, "json", { kind: "key" }, "/api/query"), { parse: "none" })
    .post("/api/query/stream", ({ request }) => handleQuery(deps, request, "stream", { kind: "key" }, "/api/query/stream"), { parse: "none" })
    .all("/api/query", () => { throw new AppError("not_found", "use POST"); })
    .all("/api/query/stream", () => { throw new AppError("not_found", "use POST"); });
}
