import { Elysia, t } from "elysia";
import { requireAccount } from "../auth/session-cookie.ts";
import { CreateKeyBodySchema } from "../contract/console.ts";
import { json } from "../http/responses.ts";
import type { Store } from "../store/types.ts";
import { createKey, listKeys, revokeKey } from "./api-keys.ts";

const noStore = { "cache-control": "no-store" };

/** API keys in the Console (README "The API"): session cookie only; a key is not a credential here. */
export function keyRoutes(deps: { store: Store }) {
  return new Elysia({ name: "key-routes" })
    .get("/api/console/keys", async ({ request }) => {
      const acc = await requireAccount(deps.store, request);
      return json({ keys: await listKeys(deps.store, acc.id) }, 200, noStore);
    })
    .post(
      "/api/console/keys",
      async ({ request, body }) => {
        const acc = await requireAccount(deps.store, request);
        const name = body?.name?.trim() || null;
        const { last_used_at: _l, revoked_at: _r, ...shown } = await createKey(deps.store, acc.id, name);
        return json(shown, 201, noStore);
      },
      { body: t.Optional(CreateKeyBodySchema) },
    )
    .delete("/api/console/keys/:key_id", async ({ request, params }) => {
      const acc = await requireAccount(deps.store, request);
      return json(await revokeKey(deps.store, acc.id, params.key_id), 200, noStore);
    });
}
