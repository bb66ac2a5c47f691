import { t } from "elysia";
import type { Account } from "../auth/accounts.ts";
import { Audit } from "../auth/audit/audit.ts";
import { sessionToken } from "../auth/session-cookie.ts";
import type { Config } from "../config/schema.ts";
import { CreateKeyBodySchema } from "../contract/console.ts";
import { BODY_TOO_LARGE, err, json as jsonAnswer, pathParam, sessionOp } from "../contract/openapi-operations.ts";
import { ref } from "../contract/openapi-schemas.ts";
import { queryValue } from "../http/query-value.ts";
import { json, NO_STORE } from "../http/responses.ts";
import { routes } from "../http/route.ts";
import type { Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";
import { createKey, listKeyPage, revokeKey } from "./api-keys.ts";

// Each route's OpenAPI operation, beside it: its summary, body and answers are this one object.
const LIST_KEYS = sessionOp(
  "listKeys",
  "Console",
  "List the account's keys, newest first, a page at a time",
  {
    200: jsonAnswer("KeyList", "a page of the keys from ?from=; never the full key"),
    400: err(["invalid_request"], " (from given twice)"),
  },
  {
    parameters: [
      {
        name: "from",
        in: "query",
        required: false,
        description:
          "the id of the key the page starts at (the newest when absent): the previous answer's next; a key not the caller's: an empty page",
        schema: { type: "string" },
      },
    ],
  },
);
const CREATE_KEY = sessionOp(
  "createKey",
  "Console",
  "Create a key; the full key is returned once",
  {
    201: jsonAnswer("CreatedKey", "the new key, with the full key this once"),
    400: err(["invalid_request"], ` (not a JSON object, a name over 100 characters, ${BODY_TOO_LARGE})`),
    409: err(["key_limit_reached"]),
  },
  { requestBody: { required: false, content: { "application/json": { schema: ref("CreateKeyBody") } } } },
);
const REVOKE_KEY = sessionOp(
  "revokeKey",
  "Console",
  "Revoke a key (takes effect on the next call)",
  { 200: jsonAnswer("RevokedKey", "revoked; revoking again answers the same record"), 404: err(["key_not_found"]) },
  { parameters: [pathParam("key_id", "the key's id")] },
);
/** API keys in the Console (README "The API"): session cookie only; a key is not a credential here. */
export const KEY_ROUTES = routes<Account>()(
  {
    listKeys: { method: "GET", path: "/api/console/keys", auth: "session", body: "none", operation: LIST_KEYS },
    createKey: {
      method: "POST",
      path: "/api/console/keys",
      auth: "session",
      body: "json",
      schema: t.Optional(CreateKeyBodySchema),
      operation: CREATE_KEY,
    },
    revokeKey: {
      method: "DELETE",
      path: "/api/console/keys/:key_id",
      auth: "session",
      body: "json",
      operation: REVOKE_KEY,
    },
  },
  (deps: { store: Store; config: Pick<Config, "KEYS_PER_ACCOUNT" | "TRUST_PROXY">; logger: Logger }) => {
    const audit = new Audit(deps.config, deps.logger);
    return {
      listKeys: async ({ account, request }) =>
        json(await listKeyPage(deps.store, account.id, queryValue(request, "from") ?? null), 200, NO_STORE),
      createKey: async ({ account, request, body }) => {
        const name = body?.name?.trim() || null;
        const {
          last_used_at: _l,
          revoked_at: _r,
          audited,
          ...shown
        } = await createKey(
          deps.store,
          account.id,
          name,
          deps.config.KEYS_PER_ACCOUNT,
          sessionToken(request),
          (prefix) => audit.note("key_created", request, account, { target: prefix, detail: name }),
        );
        if (audited) audit.logged(audited);
        return json(shown, 201, NO_STORE);
      },
      revokeKey: async ({ account, params, request }) => {
        const { audited, ...revoked } = await revokeKey(deps.store, account.id, params.key_id as string, (prefix) =>
          audit.note("key_revoked", request, account, { target: prefix }),
        );
        if (audited) audit.logged(audited);
        return json(revoked, 200, NO_STORE);
      },
    };
  },
);
