import { Elysia } from "elysia";
import { requireAccount } from "../auth/session-cookie.ts";
import { CreateCollectionBodySchema, UpdateCollectionBodySchema } from "../contract/collections.ts";
import { type ApiPaths, BODY_TOO_LARGE, err, json as jsonAnswer, sessionOp } from "../contract/openapi-operations.ts";
import { ref } from "../contract/openapi-schemas.ts";
import { json } from "../http/responses.ts";
import type { Store } from "../store/types.ts";
import { createCollection, listCollections, removeCollection, updateCollection } from "./collection-service.ts";
import { collectionAt, NAME_PARAM, NO_STORE, OWNER_PARAM } from "./route-params.ts";

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
export const COLLECTION_OPERATIONS: ApiPaths = {
  "/api/console/collections": { get: LIST_COLLECTIONS, post: CREATE_COLLECTION },
  "/api/console/collections/{name}": { patch: UPDATE_COLLECTION, delete: REMOVE_COLLECTION },
};

/** The Console's collections (README "Collections for a team"): session cookie only. */
export function collectionRoutes(deps: { store: Store }) {
  return new Elysia({ name: "collection-routes" })
    .get(
      "/api/console/collections",
      async ({ request }) => {
        const acc = await requireAccount(deps.store, request);
        return json({ collections: await listCollections(deps.store, acc) }, 200, NO_STORE);
      },
      { detail: LIST_COLLECTIONS },
    )
    .post(
      "/api/console/collections",
      async ({ request, body }) => {
        const acc = await requireAccount(deps.store, request);
        return json({ collection: await createCollection(deps.store, acc, body) }, 201, NO_STORE);
      },
      { body: CreateCollectionBodySchema, detail: CREATE_COLLECTION },
    )
    .patch(
      "/api/console/collections/:name",
      async ({ request, params, body }) => {
        const acc = await requireAccount(deps.store, request);
        const collection = await updateCollection(deps.store, acc, collectionAt(params, request), body);
        return json({ collection }, 200, NO_STORE);
      },
      { body: UpdateCollectionBodySchema, detail: UPDATE_COLLECTION },
    )
    .delete(
      "/api/console/collections/:name",
      async ({ request, params }) => {
        const acc = await requireAccount(deps.store, request);
        return json(await removeCollection(deps.store, acc, collectionAt(params, request)), 200, NO_STORE);
      },
      { detail: REMOVE_COLLECTION },
    );
}
