import { AppError } from "../contract/errors.ts";
import { pathParam } from "../contract/openapi-operations.ts";
import { queryValue } from "../http/query-value.ts";

/**
 * What the collection routes read from a request's path and query. A path segment is
 * percent-decoded by the router, so `%2F` inside one segment is a "/" of the value (a doc_id
 * like `reports/q3 review.md` travels as `reports%2Fq3%20review.md`); a segment that is not
 * valid percent-encoding reaches the route as null and is refused here. The parameters'
 * descriptions in the OpenAPI document are beside them.
 */

/** A decoded path segment, or 400 invalid_request naming it. */
export function segment(value: string | null | undefined, what: string): string {
  if (typeof value !== "string" || value === "")
    throw new AppError("invalid_request", `the ${what} in the path is not valid percent-encoding`);
  return value;
}

/** The collection a route's path names, with the owner `?owner=EMAIL` picks (README "Collections for a team"). */
export function collectionAt(params: { name?: string | null }, request: Request) {
  return { name: segment(params.name, "collection name"), owner: queryValue(request, "owner") };
}

export const NAME_PARAM = pathParam("name", "the collection's name: the caller's own, else a shared one (see owner)");
export const DOC_ID_PARAM = pathParam(
  "doc_id",
  'the document\'s doc_id, percent-encoded as one segment ("/" as %2F: reports%2Fq3%20review.md)',
);
export const OWNER_PARAM = {
  name: "owner",
  in: "query",
  required: false,
  description:
    "the owner's email, to pick among collections of one name (empty: the one shared with no owner); without it: the caller's own, else the one shared with no owner, else the only shared one",
  schema: { type: "string" },
};
export const FROM_DOC_PARAM = {
  name: "from",
  in: "query",
  required: false,
  description: "the doc_id the page starts at (the first page when absent): the previous answer's next",
  schema: { type: "string" },
};
export const FROM_PARAM = {
  name: "from",
  in: "query",
  required: false,
  description: "the first passage to return (0 when absent): the previous answer's next",
  schema: { type: "integer", minimum: 0 },
};
