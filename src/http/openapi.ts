import { Credentials, MeResponse } from "./auth-routes.ts";
import { CreateKeyBody, KeyRecordSchema } from "./console-routes.ts";
import { QueryBodySchema } from "./query-body.ts";
import { EnvelopeSchema, ErrorBodySchema, RunTimelineSchema, UsageSchema } from "./schemas.ts";

// Typebox schemas are JSON Schema already; a JSON round trip drops their symbol keys.
const plain = (s: unknown) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
const jsonBody = (schema: unknown, description = "") => ({ description, content: { "application/json": { schema: plain(schema) } } });
const err = (description: string) => jsonBody(ErrorBodySchema, description);
const envErr = (description: string) => jsonBody(EnvelopeSchema, description);
const keyAuth = [{ bearer: [] }, { apiKey: [] }];
const cookieAuth = [{ session: [] }];

const queryOp = (stream: boolean) => ({
  summary: stream ? "Run a research query, streamed as Server-Sent Events" : "Run a research query; holds the connection until the run finishes",
  security: keyAuth,
  requestBody: { required: true, ...jsonBody(QueryBodySchema) },
  responses: {
    200: stream
      ? { description: "text/event-stream: progress, source, answer, error events; always ends with final (data: the envelope). Key failures arrive here as error + final.", content: { "text/event-stream": { schema: { type: "string" } } } }
      : envErr("The envelope; status error when the run did not complete"),
    400: envErr("invalid_request"),
    ...(stream ? {} : { 401: envErr("missing_api_key, invalid_api_key"), 403: envErr("key_inactive") }),
    429: envErr("quota_exceeded"),
  },
});

/** The OpenAPI 3.1 document of every endpoint in CONTRACT §3–§5. */
export function openApiDocument(serverUrl: string) {
  const sessionOp = (summary: string, ok: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    summary, security: cookieAuth, responses: { ...ok, 401: err("unauthorized"), 403: err("CROSS_SITE_REQUEST"), ...extra },
  });
  return {
    openapi: "3.1.0",
    info: { title: "research-query", version: "0.1.0", description: "Research questions in, cited Markdown answers out." },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "API key rq-…" },
        apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        session: { type: "apiKey", in: "cookie", name: "auth_token" },
      },
    },
    paths: {
      "/api/query": { post: queryOp(false) },
      "/api/query/stream": { post: queryOp(true) },
      "/api/console/keys": {
        get: sessionOp("List the account's keys", { 200: jsonBody({ type: "object", properties: { keys: { type: "array", items: plain(KeyRecordSchema) } } }) }),
        post: { ...sessionOp("Create a key; the full key is returned once", { 201: jsonBody({ type: "object", properties: { id: { type: "string" }, name: { type: ["string", "null"] }, key: { type: "string" }, prefix: { type: "string" }, status: { type: "string" }, created_at: { type: "string" } } }) }, { 400: err("invalid_request") }), requestBody: jsonBody(CreateKeyBody) },
      },
      "/api/console/keys/{key_id}": {
        delete: { ...sessionOp("Revoke a key", { 200: jsonBody({ type: "object", properties: { id: { type: "string" }, status: { const: "revoked" }, revoked_at: { type: "string" } } }) }, { 404: err("key_not_found") }), parameters: [{ name: "key_id", in: "path", required: true, schema: { type: "string" } }] },
      },
      "/api/console/usage": { get: sessionOp("Allowance, totals, calls per day, recent calls", { 200: jsonBody(UsageSchema) }) },
      "/api/console/runs/{request_id}": {
        get: { ...sessionOp("The timeline of a finished call", { 200: jsonBody(RunTimelineSchema) }, { 404: err("run_not_found") }), parameters: [{ name: "request_id", in: "path", required: true, schema: { type: "string" } }] },
      },
      "/api/v1/auth/signup": { post: { summary: "Create an account and sign in (sets auth_token)", requestBody: { required: true, ...jsonBody(Credentials) }, responses: { 201: jsonBody(MeResponse), 400: err("invalid_request"), 409: err("email_taken") } } },
      "/api/v1/auth/login": { post: { summary: "Sign in (sets auth_token)", requestBody: { required: true, ...jsonBody(Credentials) }, responses: { 200: jsonBody(MeResponse), 400: err("invalid_request"), 401: err("invalid_credentials"), 429: err("too_many_attempts") } } },
      "/api/v1/auth/logout": { post: { summary: "Sign out; ends the session on the server", responses: { 204: { description: "signed out" } } } },
      "/api/v1/me": { get: sessionOp("The signed-in account", { 200: jsonBody(MeResponse) }) },
      "/api/v1/auth/providers": { get: { summary: "Sign-in methods: password, and the identity provider when configured", responses: { 200: jsonBody({ type: "object", properties: { password: { type: "boolean" }, oidc: { type: ["object", "null"], properties: { name: { type: "string" }, start_url: { type: "string" } } } } }) } } },
      "/api/v1/auth/oidc/start": { get: { summary: "Sign in through the configured identity provider (redirect)", responses: { 302: { description: "to the identity provider" }, 404: err("not configured") } } },
      "/api/v1/auth/oidc/callback": { get: { summary: "Identity provider callback (redirect)", responses: { 302: { description: "to / signed in, or to /signin?error=…" } } } },
      "/api/v1/research": { post: { ...queryOp(false), summary: "The web client's run (session cookie)", security: cookieAuth } },
      "/api/v1/research/stream": { post: { ...queryOp(true), summary: "The web client's streamed run (session cookie)", security: cookieAuth } },
      "/healthz": { get: { summary: "Health", responses: { 200: jsonBody({ type: "object", properties: { status: { const: "ok" } } }) } } },
    },
  };
}
