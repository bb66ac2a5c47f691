import { Type as T, type TSchema } from "@sinclair/typebox";
import { ERRORS, type ErrorCode } from "./errors.ts";
import { STREAM_EVENT_DATA, STREAM_EVENT_NAMES, STREAM_EXAMPLE } from "./events.ts";
import { ref, type SchemaName, schemaFor } from "./openapi-schemas.ts";
import { MAX_QUERY_CHARS, QUERY_BODY_EXAMPLE } from "./query.ts";

// The building blocks of the OpenAPI document's operations (src/contract/openapi.ts).

type Schema = TSchema | SchemaName;
export interface Response {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, unknown>;
}
export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Security;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, Response>;
}

const schemaOf = (s: Schema) => (typeof s === "string" ? ref(s) : schemaFor(s));
export const header = (name: "X-Request-Id" | "Retry-After" | "Set-Cookie" | "Idempotent-Replayed") => ({
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
/** An envelope answer of a query endpoint, with its X-Request-Id. */
export const env = (list: ErrorCode[], extra?: Response["headers"]) =>
  json("Envelope", `the envelope with status error: ${codes(list)}`, {
    "X-Request-Id": header("X-Request-Id"),
    ...extra,
  });
export const pathParam = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});
export const retry = { "Retry-After": header("Retry-After") };

export type Security = Record<string, string[]>[];
const KEY_AUTH: Security = [{ bearer: [] }, { apiKey: [] }];
const COOKIE_AUTH: Security = [{ session: [] }];

/** The safe-retry headers (README "Safe retries"). */
const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "1 to 255 printable ASCII characters. The same account sending the same key within 24 hours gets the same run (its stream, or its envelope once it ends) and is not charged again; the same key with another question is 422 `idempotency_key_reused`.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};
const LAST_EVENT_ID = {
  name: "Last-Event-ID",
  in: "header",
  required: false,
  description:
    "`<request_id>:<sequence>`, the `id:` of the last event received. Attaches to that run of the same account instead of starting one: the events after it are replayed (from memory while the run lives, from its stored timeline after), then live ones; nothing is charged and the body is not read. 404 `run_not_found` if the account has no such run; 204 if the run has ended and nothing follows that event.",
  schema: { type: "string", pattern: "^[0-9a-fA-F-]{36}:[0-9]+$" },
};

/** The query endpoints and the web client's runs: same body, envelope, events, refusals. */
export function runOp(kind: "key" | "session", stream: boolean, operationId: string, summary: string): Operation {
  const body = {
    required: true,
    content: { "application/json": { schema: ref("QueryBody"), example: QUERY_BODY_EXAMPLE } },
  };
  // Each event's data is a named schema, so schemaFor gives its $ref.
  const events = Object.fromEntries(STREAM_EVENT_NAMES.map((n) => [n, schemaFor(STREAM_EVENT_DATA[n])]));
  const ok: Response = stream
    ? {
        description: `text/event-stream: events ${STREAM_EVENT_NAMES.join(", ")} (each \`id: <request_id>:<sequence>\`, \`event: <name>\` and one \`data:\` line of JSON; see the StreamEvent schema); \`final\`, whose data is the envelope, is always last. The stream starts with a \`retry:\` hint (1000 ms; an hour on a refusal, which a retry would only repeat). A \`: keep-alive\` comment line (no blank line after it) goes out at least every 15 s.${kind === "key" ? " The key failures (missing_api_key, invalid_api_key, key_inactive) arrive here as error + final, on HTTP 200." : ""}`,
        headers: { "X-Request-Id": header("X-Request-Id"), "Idempotent-Replayed": header("Idempotent-Replayed") },
        content: {
          "text/event-stream": {
            schema: { type: "string", description: "Server-Sent Events", examples: [STREAM_EXAMPLE] },
            "x-sse-events": events,
          },
        },
      }
    : json("Envelope", "the envelope; status error (with the reasons in errors) when the run did not complete", {
        "X-Request-Id": header("X-Request-Id"),
        "Idempotent-Replayed": header("Idempotent-Replayed"),
      });
  const auth: Record<string, Response> =
    kind === "session"
      ? { 401: env(["unauthorized"]), 403: err(["CROSS_SITE_REQUEST"]) }
      : stream
        ? {}
        : { 401: env(["missing_api_key", "invalid_api_key"]), 403: env(["key_inactive"]) };
  return {
    operationId,
    summary,
    tags: [kind === "key" ? "Query" : "Web client runs"],
    description: `Checks in order: credentials, body (query of 1 to ${MAX_QUERY_CHARS} characters), allowance; only a call passing all three is accepted and uses one research run. An Idempotency-Key naming a run of the account answers with that run before the allowance is checked${stream ? "; a Last-Event-ID follows its run right after the credential check, without reading the body" : ""} (README "Safe retries"). The run outlives the connection: it finishes and is recorded whatever the client does.`,
    security: kind === "key" ? KEY_AUTH : COOKIE_AUTH,
    parameters: stream ? [IDEMPOTENCY_KEY, LAST_EVENT_ID] : [IDEMPOTENCY_KEY],
    requestBody: body,
    responses: {
      200: ok,
      ...(stream
        ? {
            204: {
              description:
                "Last-Event-ID named the last event of a run that has ended: nothing follows; stop reconnecting",
              headers: { "X-Request-Id": header("X-Request-Id") },
            },
          }
        : {}),
      400: env(["invalid_request"]),
      ...auth,
      ...(stream ? { 404: env(["run_not_found"]) } : {}),
      422: env(["idempotency_key_reused"]),
      429: env(["quota_exceeded"], retry),
      500: json("Envelope", "the envelope with status error: `internal_error` (an unexpected failure)"),
      503: {
        ...env(["internal_error"], retry),
        description:
          "the envelope with status error: `internal_error` (the server is shutting down; retry after Retry-After)",
      },
    },
  };
}

/** A Console or account operation by session cookie. */
export function sessionOp(
  operationId: string,
  tag: string,
  summary: string,
  responses: Record<string, Response>,
  more: Partial<Operation> = {},
): Operation {
  return {
    operationId,
    summary,
    tags: [tag],
    security: COOKIE_AUTH,
    ...more,
    responses: { ...responses, 401: err(["unauthorized"]), 403: err(["CROSS_SITE_REQUEST"], " (POST and DELETE)") },
  };
}

export const text = (type: string, description: string): Response => ({
  description,
  content: { [type]: { schema: { type: "string" } } },
});

/** Health, the document itself, the reference page and metrics. */
export function servicePaths(): Record<string, Record<string, Operation>> {
  return {
    "/healthz": {
      get: {
        operationId: "health",
        summary: "Health",
        tags: ["Service"],
        responses: { 200: json("Health", "ok once the database is open and migrated") },
      },
    },
    "/openapi.json": {
      get: {
        operationId: "openApi",
        summary: "This document",
        tags: ["Service"],
        responses: { 200: json(T.Object({}, { additionalProperties: true }), "the OpenAPI 3.1 document") },
      },
    },
    "/docs": {
      get: {
        operationId: "apiReference",
        summary: "A readable API reference rendered from this document",
        tags: ["Service"],
        responses: { 200: text("text/html", "the reference page; no script") },
      },
    },
    "/metrics": {
      get: {
        operationId: "metrics",
        summary: "Prometheus metrics",
        tags: ["Service"],
        responses: { 200: text("text/plain", "Prometheus text exposition format 0.0.4") },
      },
    },
  };
}
