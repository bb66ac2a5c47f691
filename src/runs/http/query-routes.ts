import type { Account } from "../../auth/accounts.ts";
import { runOp } from "../../contract/openapi-runs.ts";
import { routes } from "../../http/route.ts";
import { presentedKey } from "../../keys/api-keys.ts";
import { type RunHttp, runResponse } from "./run-response.ts";

/**
 * POST /api/query and /api/query/stream: the API (README "The API"). Being `key` routes they
 * run on Bun's native route table with CORS (src/server/native-routes.ts): they are the hot path
 * (every API call, every refusal) and need neither Elysia's body parsing (runs/http/query-body.ts
 * reads the body) nor its hooks: going through Elysia cost more than the handler itself
 * (docs/decisions/0010-query-endpoints-native-routes.md, test/bench/RESULTS.md §2).
 */
export const QUERY_ROUTES = routes<Account>()(
  {
    query: {
      method: "POST",
      path: "/api/query",
      auth: "key",
      body: "own",
      operation: runOp("key", false, "query", "Run a research query; holds the connection until the run finishes"),
    },
    queryStream: {
      method: "POST",
      path: "/api/query/stream",
      auth: "key",
      body: "own",
      operation: runOp("key", true, "queryStream", "Run a research query, streamed as Server-Sent Events"),
    },
  },
  (deps: RunHttp) => {
    const run = (mode: "json" | "stream", path: string) => (c: { request: Request; headers: Record<string, string> }) =>
      runResponse(deps, c.request, mode, { kind: "key", presented: presentedKey(c.request.headers) }, path, c.headers);
    return { query: run("json", "/api/query"), queryStream: run("stream", "/api/query/stream") };
  },
);
