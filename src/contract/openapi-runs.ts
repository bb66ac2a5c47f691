import { EVENT_ID_PATTERN, STREAM_EVENT_DATA, STREAM_EVENT_NAMES, STREAM_EXAMPLE } from "./events.ts";
import {
  COOKIE_AUTH,
  env,
  err,
  header,
  json,
  KEY_AUTH,
  type Operation,
  type Response,
  retry,
  UNAVAILABLE,
  UNAVAILABLE_WHY,
} from "./openapi-operations.ts";
import { ref, schemaFor } from "./openapi-schemas.ts";
import { MAX_BODY_BYTES, MAX_QUERY_CHARS, QUERY_BODY_EXAMPLE } from "./query.ts";

// The four run operations of the OpenAPI document: /api/query(/stream) by key, /api/v1/research(/stream) by session.

const RATE_LIMIT = { RateLimit: header("RateLimit"), "RateLimit-Policy": header("RateLimit-Policy") };

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
  schema: { type: "string", pattern: EVENT_ID_PATTERN },
};
/** On a JSON endpoint: the run's envelope, as an Idempotency-Key replay answers it. */
const LAST_EVENT_ID_JSON = {
  ...LAST_EVENT_ID,
  description:
    "`<request_id>:<sequence>`, an event id of a run of the same account (from a stream that broke off, or any of its events). Answers with that run's envelope, waiting for it if it is still running, with `Idempotent-Replayed: true`; nothing is charged and the body is not read. 404 `run_not_found` if the account has no such run.",
};

/** 200 of a stream: Server-Sent Events, each message a StreamMessage. */
function streamOk(kind: "key" | "session"): Response {
  return {
    description: `text/event-stream: events ${STREAM_EVENT_NAMES.join(", ")}, each with \`id: <request_id>:<sequence>\`, \`event: <name>\` and one \`data:\` line of JSON (the StreamMessage schema); \`final\`, whose data is the envelope, is always last. The stream starts with a \`retry:\` hint (1000 ms; an hour on a refusal, which a retry would only repeat). A \`: keep-alive\` comment line (no blank line after it) goes out at least every 15 s.${kind === "key" ? " The key failures (missing_api_key, invalid_api_key, key_inactive) arrive here as error + final, on HTTP 200." : ""}`,
    headers: { "Idempotent-Replayed": header("Idempotent-Replayed") },
    content: {
      "text/event-stream": {
        schema: {
          type: "string",
          description: "Server-Sent Events: a `retry:` line, then the messages, keep-alive comments between them",
          contentMediaType: "text/event-stream",
          contentSchema: {
            type: "array",
            description: "the messages in order, as an SSE parser yields them; final is the last",
            items: ref("StreamMessage"),
          },
          examples: [STREAM_EXAMPLE],
        },
        // Each event's data is a named schema, so schemaFor gives its $ref.
        "x-sse-events": Object.fromEntries(STREAM_EVENT_NAMES.map((n) => [n, schemaFor(STREAM_EVENT_DATA[n])])),
      },
    },
  };
}

/** The query endpoints and the web client's runs: same body, envelope, events, refusals. */
export function runOp(kind: "key" | "session", stream: boolean, operationId: string, summary: string): Operation {
  const body = {
    required: true,
    content: { "application/json": { schema: ref("QueryBody"), example: QUERY_BODY_EXAMPLE } },
  };
  const ok = stream
    ? streamOk(kind)
    : json("Envelope", "the envelope; status error (with the reasons in errors) when the run did not complete", {
        "Idempotent-Replayed": header("Idempotent-Replayed"),
      });
  const auth: Record<string, Response> =
    kind === "session"
      ? { 401: env(["unauthorized"]), 403: err(["CROSS_SITE_REQUEST"]) }
      : stream
        ? {}
        : { 401: env(["missing_api_key", "invalid_api_key"]), 403: env(["key_inactive"]) };
  const responses: Record<string, Response> = {
    200: ok,
    ...(stream
      ? {
          204: {
            description:
              "Last-Event-ID named the last event of a run that has ended: nothing follows; stop reconnecting",
          },
        }
      : {}),
    400: env(
      ["invalid_request"],
      ` (no body, broken JSON, wrong type, empty, over ${MAX_QUERY_CHARS} characters, a body over ${MAX_BODY_BYTES / 1024} KB)`,
    ),
    ...auth,
    404: env(["run_not_found"]),
    422: env(["idempotency_key_reused"]),
    429: env(["quota_exceeded"], " (Retry-After: seconds until the next month)", retry),
    500: env(["internal_error"], " (an unexpected failure)"),
    503: env(
      [...UNAVAILABLE, "search_unavailable"],
      `${UNAVAILABLE_WHY.slice(0, -1)}; or search_unavailable: nothing could search for the question (no web provider, the academic databases unreachable, no documents in a readable collection), the message names what to configure; nothing was charged)`,
      retry,
    ),
  };
  // The key's account's allowance on every answer past the key check (README "The API": RateLimit).
  if (kind === "key")
    for (const [status, r] of Object.entries(responses))
      if (status !== "401" && status !== "403") r.headers = { ...r.headers, ...RATE_LIMIT };
  return {
    operationId,
    summary,
    tags: [kind === "key" ? "Query" : "Web client runs"],
    description: `Checks in order: credentials, body (query of 1 to ${MAX_QUERY_CHARS} characters), whether anything can search (search_unavailable), allowance; only a call passing all four is accepted and uses one research run. An Idempotency-Key naming a run of the account answers with that run before the allowance is checked; a Last-Event-ID ${stream ? "follows" : "answers with"} its run right after the credential check, without reading the body (README "Safe retries"). The run outlives the connection: it finishes and is recorded whatever the client does.`,
    security: kind === "key" ? KEY_AUTH : COOKIE_AUTH,
    parameters: [IDEMPOTENCY_KEY, stream ? LAST_EVENT_ID : LAST_EVENT_ID_JSON],
    requestBody: body,
    responses,
  };
}
