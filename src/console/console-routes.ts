import { Elysia } from "elysia";
import { requireAccount } from "../auth/session-cookie.ts";
import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { json } from "../http/responses.ts";
import type { Store } from "../store/types.ts";
import { runTimeline } from "./run-timeline.ts";
import { usageReport } from "./usage.ts";

const noStore = { "cache-control": "no-store" };

/** The Console's usage and run timelines (README "The API"): session cookie only. */
export function consoleRoutes(deps: { config: Config; store: Store }) {
  return new Elysia({ name: "console-routes" })
    .get("/api/console/usage", async ({ request }) => {
      const acc = await requireAccount(deps.store, request);
      return json(await usageReport(deps.store, deps.config, acc), 200, noStore);
    })
    .get("/api/console/runs/:request_id", async ({ request, params }) => {
      const acc = await requireAccount(deps.store, request);
      const run = await runTimeline(deps.store, acc.id, params.request_id);
      if (!run) throw new AppError("run_not_found", "no such run");
      return json(run, 200, noStore);
    });
}
