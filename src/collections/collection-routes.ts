import type { Account } from "../auth/accounts.ts";
import { Audit } from "../auth/audit/audit.ts";
import type { Config } from "../config/schema.ts";
import { CreateCollectionBodySchema, UpdateCollectionBodySchema } from "../contract/collections.ts";
import { BODY_TOO_LARGE, err, json as jsonAnswer, sessionOp } from "../contract/openapi-operations.ts";
import { ref } from "../contract/openapi-schemas.ts";
import { json, NO_STORE } from "../http/responses.ts";
import { routes } from "../http/route.ts";
import type { Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";
import { createCollection, listCollections, removeCollection, updateCollection } from "./collection-service.ts";
import { collectionAt, NAME_PARAM, OWNER_PARAM } from "./route-params.ts";

// Each route's OpenAPI operation, beside it: its summary, body and answers are this one object.
const LIST_COLLECTIONS = sessionOp("listCollections", "Collections", "The caller's collections and every shared one", {
  200: jsonAnswer("CollectionList", "by name, then owner; never another account's private collection"),
});
const CREATE_COLLECTION = sessionOp(
  "createCollection",
  "Collections",
  "Create an empty collection of the caller's (private unless said)",
  {
    201: jsonAnswer("CollectionAnswer", "the new collection"),
    400: err(
      ["invalid_collection_name", "invalid_request"],
      ` (no name, a visibility not private or shared, ${BODY_TOO_LARGE})`,
    ),
    409: err(["collection_exists"]),
  },
  { requestBody: { required: true, content: { "application/json": { schema: ref("CreateCollectionBody") } } } },
);
const UPDATE_COLLECTION = sessionOp(
  "updateCollection",
  "Collections",
  "Rename one of the caller's collections, or change its visibility",
  {
    200: jsonAnswer("CollectionAnswer", "the collection as it is now"),
    400: err(["invalid_collection_name", "invalid_request"], ` (neither name nor visibility, ${BODY_TOO_LARGE})`),
    404: err(["collection_not_found"], " (the caller's own collections only)"),
    409: err(["collection_exists"], " (the new name is one of the caller's)"),
  },
  {
    parameters: [NAME_PARAM, OWNER_PARAM],
    requestBody: { required: true, content: { "application/json": { schema: ref("UpdateCollectionBody") } } },
  },
);
const REMOVE_COLLECTION = sessionOp(
  "removeCollection",
  "Collections",
  "Remove one of the caller's collections with its documents",
  {
    200: jsonAnswer("RemovedCollection", "removed, with how many documents"),
    400: err(["invalid_request"], " (a path segment that is not valid percent-encoding)"),
    404: err(["collection_not_found"], " (the caller's own collections only)"),
  },
  { parameters: [NAME_PARAM, OWNER_PARAM] },
);
/** The Console's collections (README "Collections for a team"): session cookie only. */
export const COLLECTION_ROUTES = routes<Account>()(
  {
    listCollections: {
      method: "GET",
      path: "/api/console/collections",
      auth: "session",
      body: "none",
      operation: LIST_COLLECTIONS,
    },
    createCollection: {
      method: "POST",
      path: "/api/console/collections",
      auth: "session",
      body: "json",
      schema: CreateCollectionBodySchema,
      operation: CREATE_COLLECTION,
    },
    updateCollection: {
      method: "PATCH",
      path: "/api/console/collections/:name",
      auth: "session",
      body: "json",
      schema: UpdateCollectionBodySchema,
      operation: UPDATE_COLLECTION,
    },
    removeCollection: {
      method: "DELETE",
      path: "/api/console/collections/:name",
      auth: "session",
      body: "json",
      operation: REMOVE_COLLECTION,
    },
  },
  (deps: { store: Store; config: Pick<Config, "TRUST_PROXY">; logger: Logger }) => {
    const audit = new Audit(deps.config, deps.logger);
    return {
      listCollections: async ({ account }) =>
        json({ collections: await listCollections(deps.store, account) }, 200, NO_STORE),
      createCollection: async ({ account, body, request }) =>
        json(
          { collection: await createCollection(deps.store, account, body, audit.scope(request, account)) },
          201,
          NO_STORE,
        ),
      updateCollection: async ({ account, params, request, body }) => {
        const at = collectionAt(params, request);
        const collection = await updateCollection(deps.store, account, at, body, audit.scope(request, account));
        return json({ collection }, 200, NO_STORE);
      },
      removeCollection: async ({ account, params, request }) => {
        const at = collectionAt(params, request);
        return json(await removeCollection(deps.store, account, at, audit.scope(request, account)), 200, NO_STORE);
      },
    };
  },
);
