import type { TSchema } from "@sinclair/typebox";
import { ERRORS, type ErrorCode } from "./errors.ts";
import { ref, type SchemaName, schemaFor } from "./openapi-schemas.ts";
import { BODY_TIMEOUT_S, MAX_BODY_BYTES } from "./query.ts";

// The building blocks of the OpenAPI document's operations, each declared beside its route
// (the document: src/contract/openapi.ts, assembled in src/server/api-document.ts).

type Schema = TSchema | SchemaName;
/** A media type's entry: its schema, and what else OpenAPI allows beside it (example, x-…). */
type Media = Record<string, object> & { schema?: object };
export interface Response {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, Media>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: object;
}
export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Security;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, Media> };
  responses: Record<string, Response>;
}

/** Operations by path and method: the document's `paths`, or a route file's share of them. */
export type ApiPaths = Record<string, Record<string, Operation>>;

const schemaOf = (s: Schema) => (typeof s === "string" ? ref(s) : schemaFor(s));
export const header = (
  name: "X-Request-Id" | "Retry-After" | "Set-Cookie" | "Idempotent-Replayed" | "RateLimit" | "RateLimit-Policy",
) => ({
  $ref: `#/components/headers/${name}`,
});
const codes = (list: ErrorCode[]) => list.map((c) => `\`${c}\``).join(", ");
export const json = (s: Schema, description: string, headers?: Response["headers"]): Response => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema: schemaOf(s) } },
});
/** An {errors: [...]} answer naming its codes. */
export const err = (list: ErrorCode[], extra = "", headers?: Response["headers"]) =>
  json("ErrorBody", `${codes(list)}${extra}: ${list.map((c) => ERRORS[c].description).join("; ")}`, headers);
/** An envelope answer of a query endpoint. */
export const env = (list: ErrorCode[], extra = "", headers?: Response["headers"]) =>
  json("Envelope", `the envelope with status error: ${codes(list)}${extra}`, headers);
export const pathParam = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});
export const retry = { "Retry-After": header("Retry-After") };

/** The 503 of every operation (README "The API"): a draining server, or a database that cannot be reached; both come back after Retry-After. */
export const UNAVAILABLE: ErrorCode[] = ["internal_error", "service_unavailable"];
export const UNAVAILABLE_WHY =
  " (the server is shutting down and takes no new calls, or its database cannot be reached; retry after Retry-After)";
/** Said on every operation that takes a body: the server's limit, before the route reads anything. */
export const BODY_TOO_LARGE = `a body over ${MAX_BODY_BYTES / 1024} KB, or not sent within ${BODY_TIMEOUT_S} s`;

export type Security = Record<string, string[]>[];
export const KEY_AUTH: Security = [{ bearer: [] }, { apiKey: [] }];
export const COOKIE_AUTH: Security = [{ session: [] }];
/** No credentials: OpenAPI 3.1 says so with an empty list (a missing one means "not stated"). */
export const PUBLIC: Security = [];
/** The session cookie if one is sent, or none (`{}` is the anonymous alternative). */
export const OPTIONAL_COOKIE: Security = [{ session: [] }, {}];

/** A Console or account operation by session cookie. */
export function sessionOp(
  operationId: string,
  tag: string,
  summary: string,
  responses: Record<string, Response>,
  more: Partial<Operation> = {},
): Operation {
  const refused = { 401: err(["unauthorized"]), 403: err(["CROSS_SITE_REQUEST"], " (POST, PATCH and DELETE)") };
  return publicOp(operationId, tag, summary, { ...responses, ...refused }, { security: COOKIE_AUTH, ...more });
}

/** An operation anyone may call. */
export function publicOp(
  operationId: string,
  tag: string,
  summary: string,
  responses: Record<string, Response>,
  more: Partial<Operation> = {},
): Operation {
  return { operationId, summary, tags: [tag], security: PUBLIC, ...more, responses };
}

export const text = (type: string, description: string): Response => ({
  description,
  content: { [type]: { schema: { type: "string" } } },
});
