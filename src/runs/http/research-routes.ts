import type { Account } from "../../auth/accounts.ts";
import { runOp } from "../../contract/openapi-runs.ts";
import { routes } from "../../http/route.ts";
import { type RunHttp, runResponse } from "./run-response.ts";

/**
 * The web client's runs (README "The API"): the query endpoints' behaviour, by session cookie.
 * The session is optional here: without one the run core refuses in an envelope, as it refuses a key.
 */
export const RESEARCH_ROUTES = routes<Account>()(
  {
    research: {
      method: "POST",
      path: "/api/v1/research",
      auth: "optional-session",
      body: "own",
      operation: runOp("session", false, "research", "The web client's run (session cookie)"),
    },
    researchStream: {
      method: "POST",
      path: "/api/v1/research/stream",
      auth: "optional-session",
      body: "own",
      operation: runOp("session", true, "researchStream", "The web client's streamed run (session cookie)"),
    },
  },
  (deps: RunHttp) => {
    const run =
      (mode: "json" | "stream", path: string) =>
      (c: { request: Request; account: Account | null; headers: Record<string, string> }) =>
        runResponse(deps, c.request, mode, { kind: "session", accountId: c.account?.id ?? null }, path, c.headers);
    return { research: run("json", "/api/v1/research"), researchStream: run("stream", "/api/v1/research/stream") };
  },
);
