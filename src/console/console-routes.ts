import { Elysia } from "elysia";
import { requireAccount } from "../auth/session-cookie.ts";
import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { type ApiPaths, err, json as jsonAnswer, pathParam, sessionOp } from "../contract/openapi-operations.ts";
import { json } from "../http/responses.ts";
import type { Store } from "../store/types.ts";
import { runTimeline } from "./run-timeline.ts";
import { usageReport } from "./usage.ts";

const noStore = { "cache-control": "no-store" };

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
export const CONSOLE_OPERATIONS: ApiPaths = {
  "/api/console/usage": { get: GET_USAGE },
  "/api/console/runs/{request_id}": { get: GET_RUN_TIMELINE },
};

/** The Console's usage and run timelines (README "The API"): session cookie only. */
export function consoleRoutes(deps: { config: Config; store: Store }) {
  return new Elysia({ name: "console-routes" })
    .get(
      "/api/console/usage",
      async ({ request }) => {
        const acc = await requireAccount(deps.store, request);
        return json(await usageReport(deps.store, deps.config, acc), 200, noStore);
      },
      { detail: GET_USAGE },
    )
    .get(
      "/api/console/runs/:request_id",
      async ({ request, params }) => {
        const acc = await requireAccount(deps.store, request);
        const run = await runTimeline(deps.store, acc.id, params.request_id);
        if (!run) throw new AppError("run_not_found", "no such run");
        return json(run, 200, noStore);
      },
      { detail: GET_RUN_TIMELINE },
    );
}
