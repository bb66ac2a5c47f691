import type { Account } from "../auth/accounts.ts";
import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { err, json as jsonAnswer, pathParam, sessionOp } from "../contract/openapi-operations.ts";
import { json, NO_STORE } from "../http/responses.ts";
import { routes } from "../http/route.ts";
import type { Store } from "../store/types.ts";
import { runTimeline } from "./run-timeline.ts";
import { usageReport } from "./usage.ts";

// Each route's OpenAPI operation, beside it: its summary and answers are this one object.
const GET_USAGE = sessionOp("getUsage", "Console", "Allowance, totals, calls per day, recent calls", {
  200: jsonAnswer("Usage", "the usage report of the current month"),
});
const GET_RUN_TIMELINE = sessionOp(
  "getRunTimeline",
  "Console",
  "The timeline of a finished call",
  { 200: jsonAnswer("RunTimeline", "the run and its events"), 404: err(["run_not_found"]) },
  { parameters: [pathParam("request_id", "the request_id of an earlier call")] },
);
/** The Console's usage and run timelines (README "The API"): session cookie only. */
export const CONSOLE_ROUTES = routes<Account>()(
  {
    getUsage: { method: "GET", path: "/api/console/usage", auth: "session", body: "none", operation: GET_USAGE },
    getRunTimeline: {
      method: "GET",
      path: "/api/console/runs/:request_id",
      auth: "session",
      body: "none",
      operation: GET_RUN_TIMELINE,
    },
  },
  (deps: { config: Config; store: Store }) => ({
    getUsage: async ({ account }) => json(await usageReport(deps.store, deps.config, account), 200, NO_STORE),
    getRunTimeline: async ({ account, params }) => {
      const run = await runTimeline(deps.store, account.id, params.request_id as string);
      if (!run) throw new AppError("run_not_found", "no such run");
      return json(run, 200, NO_STORE);
    },
  }),
);
