import { Elysia, t } from "elysia";
import { usageReport } from "../console/usage.ts";
import { AppError } from "../errors.ts";
import { createKey, listKeys, revokeKey } from "../keys/api-keys.ts";
import { getRunTimeline } from "../runs/store.ts";
import type { AppDeps } from "./deps.ts";
import { json } from "./responses.ts";
import { requireAccount } from "./session.ts";

export const KeyRecordSchema = t.Object({
  id: t.String(), name: t.Nullable(t.String()), prefix: t.String(), status: t.Union([t.Literal("active"), t.Literal("revoked")]),
  created_at: t.String(), last_used_at: t.Nullable(t.String()), revoked_at: t.Nullable(t.String()),
});
export const CreateKeyBody = t.Object({ name: t.Optional(t.String({ maxLength: 100, description: "a label, at most 100 characters" })) });

/** The API Console (CONTRACT §4): session cookie only; API keys are not credentials here. */
export function consoleRoutes(deps: AppDeps) {
  const noStore = { "cache-control": "no-store" };
  return new Elysia({ name: "console-routes" })
    .get("/api/console/keys", ({ request }) => {
      const acc = requireAccount(deps.db, request);
      return json({ keys: listKeys(deps.db, acc.id) }, 200, noStore);
    }, { detail: { summary: "List the account's API keys" } })
    .post("/api/console/keys", ({ request, body }) => {
      const acc = requireAccount(deps.db, request);
      const name = body?.name?.trim() || null;
      const created = createKey(deps.db, acc.id, name);
      const { last_used_at: _l, revoked_at: _r, ...shown } = created;
      return json(shown, 201, noStore);
    }, { body: t.Optional(CreateKeyBody), detail: { summary: "Create an API key (the full key is returned once)" } })
    .delete("/api/console/keys/:key_id", ({ request, params }) => {
      const acc = requireAccount(deps.db, request);
      const k = revokeKey(deps.db, acc.id, params.key_id);
      return json({ id: k.id, status: k.status, revoked_at: k.revoked_at }, 200, noStore);
    }, { detail: { summary: "Revoke an API key" } })
    .get("/api/console/usage", ({ request }) => {
      const acc = requireAccount(deps.db, request);
      return json(usageReport(deps.db, deps.config, acc), 200, noStore);
    }, { detail: { summary: "Allowance, totals, calls per day and recent calls" } })
    .get("/api/console/runs/:request_id", ({ request, params }) => {
      const acc = requireAccount(deps.db, request);
      const run = getRunTimeline(deps.db, acc.id, params.request_id);
      if (!run) throw new AppError("run_not_found", "no such run");
      return json(run, 200, noStore);
    }, { detail: { summary: "The timeline of a finished call" } });
}
