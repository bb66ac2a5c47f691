import type { Account } from "../auth/accounts.ts";
import { Audit } from "../auth/audit/audit.ts";
import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { err, json as jsonAnswer, sessionOp } from "../contract/openapi-operations.ts";
import { queryValue } from "../http/query-value.ts";
import { json, NO_STORE } from "../http/responses.ts";
import { routes } from "../http/route.ts";
import type { Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";
import { listDocuments, removeDocument } from "./document-list.ts";
import { documentPage, fromParam } from "./document-page.ts";
import { ownCollection, readableCollection } from "./find-collection.ts";
import {
  collectionAt,
  DOC_ID_PARAM,
  FROM_DOC_PARAM,
  FROM_PARAM,
  NAME_PARAM,
  OWNER_PARAM,
  segment,
} from "./route-params.ts";

// Each route's OpenAPI operation, beside it: its summary and answers are this one object.
const NOT_READABLE = err(
  ["collection_not_found"],
  " (none the caller may read: another's private one answers the same)",
);
const LIST_DOCUMENTS = sessionOp(
  "listDocuments",
  "Collections",
  "The documents of a collection the caller may read, each with its status",
  {
    200: jsonAnswer("DocumentList", "by doc_id, a page from ?from="),
    400: err(["invalid_request"], " (a path segment that is not valid percent-encoding)"),
    404: NOT_READABLE,
    409: err(["collection_ambiguous"]),
  },
  { parameters: [NAME_PARAM, OWNER_PARAM, FROM_DOC_PARAM] },
);
const GET_DOCUMENT = sessionOp(
  "getDocument",
  "Collections",
  "A document's text in passages (the web app's document page)",
  {
    200: jsonAnswer("DocumentPage", "the document and up to 100 passages from ?from="),
    400: err(["invalid_request"], " (from is not a passage number; a path segment that is not valid percent-encoding)"),
    404: err(["collection_not_found", "document_not_found"]),
    409: err(["collection_ambiguous"]),
  },
  { parameters: [NAME_PARAM, DOC_ID_PARAM, OWNER_PARAM, FROM_PARAM] },
);
const REMOVE_DOCUMENT = sessionOp(
  "removeDocument",
  "Collections",
  "Remove one document of one of the caller's collections",
  {
    200: jsonAnswer("RemovedDocument", "removed"),
    400: err(["invalid_request"], " (a path segment that is not valid percent-encoding)"),
    404: err(["collection_not_found", "document_not_found"], " (the caller's own collections only)"),
  },
  { parameters: [NAME_PARAM, DOC_ID_PARAM, OWNER_PARAM] },
);
/** A collection's documents in the Console (README "Collections for a team"): session cookie only. */
export const DOCUMENT_ROUTES = routes<Account>()(
  {
    listDocuments: {
      method: "GET",
      path: "/api/console/collections/:name/documents",
      auth: "session",
      body: "none",
      operation: LIST_DOCUMENTS,
    },
    getDocument: {
      method: "GET",
      path: "/api/console/collections/:name/documents/:doc_id",
      auth: "session",
      body: "none",
      operation: GET_DOCUMENT,
    },
    removeDocument: {
      method: "DELETE",
      path: "/api/console/collections/:name/documents/:doc_id",
      auth: "session",
      body: "json",
      operation: REMOVE_DOCUMENT,
    },
  },
  (deps: { store: Store; config: Pick<Config, "TRUST_PROXY">; logger: Logger }) => {
    const audit = new Audit(deps.config, deps.logger);
    return {
      listDocuments: async ({ account, request, params }) => {
        const at = collectionAt(params, request);
        const c = await readableCollection(deps.store, account, at.name, at.owner);
        // The first page when absent: the doc_ids start at "".
        const from = queryValue(request, "from") ?? "";
        return json(await listDocuments(deps.store, c, from), 200, NO_STORE);
      },
      getDocument: async ({ account, request, params }) => {
        const at = collectionAt(params, request);
        const docId = segment(params.doc_id, "doc_id");
        const from = fromParam(queryValue(request, "from"));
        const c = await readableCollection(deps.store, account, at.name, at.owner);
        return json(await documentPage(deps.store, c, docId, from), 200, NO_STORE);
      },
      removeDocument: async ({ account, request, params }) => {
        const at = collectionAt(params, request);
        const docId = segment(params.doc_id, "doc_id");
        const c = await ownCollection(deps.store, account, at.name, at.owner);
        if (!(await removeDocument(deps.store, c, docId, audit.scope(request, account))))
          throw new AppError("document_not_found", `no document ${JSON.stringify(docId)} in this collection`);
        return json({ doc_id: docId }, 200, NO_STORE);
      },
    };
  },
);
