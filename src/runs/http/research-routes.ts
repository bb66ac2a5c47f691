import { Elysia } from "elysia";
import { sessionToken } from "../../auth/session-cookie.ts";
import { resolveSession } from "../../auth/sessions.ts";
import type { ApiPaths } from "../../contract/openapi-operations.ts";
import { runOp } from "../../contract/openapi-runs.ts";
import type { Store } from "../../store/types.ts";
import { type RunHttp, runResponse } from "./run-response.ts";

// Each route's OpenAPI operation, beside it (the run operations share one builder, runOp).
const RESEARCH = runOp("session", false, "research", "The web client's run (session cookie)");
const RESEARCH_STREAM = runOp("session", true, "researchStream", "The web client's streamed run (session cookie)");
export const RESEARCH_OPERATIONS: ApiPaths = {
  "/api/v1/research": { post: RESEARCH },
  "/api/v1/research/stream": { post: RESEARCH_STREAM },
};

/** The web client's runs (README "The API"): the query endpoints' behaviour, by session cookie. */
export function researchRoutes(deps: RunHttp & { store: Store }) {
  const handle = async (request: Request, mode: "json" | "stream", endpoint: string) => {
    const accountId = await resolveSession(deps.store, sessionToken(request));
    return runResponse(deps, request, mode, { kind: "session", accountId }, endpoint, {});
  };
  return new Elysia({ name: "research-routes" })
    .post("/api/v1/research", ({ request }) => handle(request, "json", "/api/v1/research"), {
      parse: "none",
      detail: RESEARCH,
    })
    .post("/api/v1/research/stream", ({ request }) => handle(request, "stream", "/api/v1/research/stream"), {
      parse: "none",
      detail: RESEARCH_STREAM,
    });
}
