import { Elysia } from "elysia";
import type { AppDeps } from "./deps.ts";
import { handleQuery } from "./query-handler.ts";
import { sessionAccount } from "./session.ts";

/** The web client's runs (CONTRACT §3): same as the query endpoints, but by session. */
export function researchRoutes(deps: AppDeps) {
  const caller = (request: Request) => ({ kind: "session" as const, accountId: sessionAccount(deps.db, request)?.id ?? null });
  return new Elysia({ name: "research-routes" })
    .post("/api/v1/research", ({ request }) => handleQuery(deps, request, "json", caller(request), "/api/v1/research"), { parse: "none" })
    .post("/api/v1/research/stream", ({ request }) => handleQuery(deps, request, "stream", caller(request), "/api/v1/research/stream"), { parse: "none" });
}
