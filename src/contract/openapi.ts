import {
  err,
  header,
  json,
  type Operation,
  pathParam,
  retry,
  runOp,
  servicePaths,
  sessionOp,
} from "./openapi-operations.ts";
import { componentSchemas, type JsonSchema, ref } from "./openapi-schemas.ts";

/**
 * The OpenAPI 3.1 document of every endpoint (README "The API"), generated from the contract's
 * schemas: components.schemas are the named TypeBox schemas, and operations refer to them.
 */

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
  paths: Record<string, Record<string, Operation>>;
}

export function openApiDocument(serverUrl: string): OpenApiDocument {
  const signedIn = { "Set-Cookie": header("Set-Cookie") };
  return {
    openapi: "3.1.0",
    info: {
      title: "research-query",
      version: "0.1.0",
      description: "Research questions in, cited Markdown answers out.",
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: "Query", description: "The API: a question in, an answer with sources out (API key)" },
      { name: "Console", description: "Keys, usage and run timelines (session cookie)" },
      { name: "Accounts", description: "The web client's accounts and sign-in (under /api/v1/, not part of the API)" },
      {
        name: "Web client runs",
        description: "The web client's runs by session (under /api/v1/, not part of the API)",
      },
      { name: "Service", description: "Health, this document, the reference page, metrics" },
    ],
    components: {
      schemas: componentSchemas(),
      headers: {
        "X-Request-Id": {
          description:
            "the call's request_id (the envelope's request_id); on a resumed stream or an idempotent retry, the id of the run it answers with",
          schema: { type: "string", format: "uuid" },
        },
        "Idempotent-Replayed": {
          description: "true when an Idempotency-Key named a run already started: this is that run, not a new one",
          schema: { type: "string", enum: ["true"] },
        },
        "Retry-After": { description: "seconds to wait before trying again", schema: { type: "integer", minimum: 1 } },
        "Set-Cookie": {
          description: "auth_token=…; HttpOnly; SameSite=Lax; Path=/ (Secure when PUBLIC_URL is https)",
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "API key rq-…" },
        apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        session: { type: "apiKey", in: "cookie", name: "auth_token" },
      },
    },
    paths: {
      "/api/query": {
        post: runOp("key", false, "query", "Run a research query; holds the connection until the run finishes"),
      },
      "/api/query/stream": {
        post: runOp("key", true, "queryStream", "Run a research query, streamed as Server-Sent Events"),
      },
      "/api/console/keys": {
        get: sessionOp("listKeys", "Console", "List the account's keys, newest first", {
          200: json("KeyList", "the keys; never the full key"),
        }),
        post: sessionOp(
          "createKey",
          "Console",
          "Create a key; the full key is returned once",
          { 201: json("CreatedKey", "the new key, with the full key this once"), 400: err(["invalid_request"]) },
          { requestBody: { required: false, content: { "application/json": { schema: ref("CreateKeyBody") } } } },
        ),
      },
      "/api/console/keys/{key_id}": {
        delete: sessionOp(
          "revokeKey",
          "Console",
          "Revoke a key (takes effect on the next call)",
          { 200: json("RevokedKey", "revoked; revoking again answers the same record"), 404: err(["key_not_found"]) },
          { parameters: [pathParam("key_id", "the key's id")] },
        ),
      },
      "/api/console/usage": {
        get: sessionOp("getUsage", "Console", "Allowance, totals, calls per day, recent calls", {
          200: json("Usage", "the usage report of the current month"),
        }),
      },
      "/api/console/runs/{request_id}": {
        get: sessionOp(
          "getRunTimeline",
          "Console",
          "The timeline of a finished call",
          { 200: json("RunTimeline", "the run and its events"), 404: err(["run_not_found"]) },
          { parameters: [pathParam("request_id", "the request_id of an earlier call")] },
        ),
      },
      "/api/v1/auth/signup": {
        post: {
          operationId: "signup",
          summary: "Create an account and sign in (sets auth_token)",
          tags: ["Accounts"],
          requestBody: { required: true, content: { "application/json": { schema: ref("Credentials") } } },
          responses: {
            201: json("Me", "signed in", signedIn),
            400: err(["invalid_request"]),
            403: err(["CROSS_SITE_REQUEST"]),
            409: err(["email_taken"]),
          },
        },
      },
      "/api/v1/auth/login": {
        post: {
          operationId: "login",
          summary: "Sign in (sets auth_token)",
          tags: ["Accounts"],
          requestBody: { required: true, content: { "application/json": { schema: ref("Credentials") } } },
          responses: {
            200: json("Me", "signed in", signedIn),
            400: err(["invalid_request"]),
            401: err(["invalid_credentials"]),
            403: err(["CROSS_SITE_REQUEST"]),
            429: err(["too_many_attempts"], "", retry),
          },
        },
      },
      "/api/v1/auth/logout": {
        post: {
          operationId: "logout",
          summary: "Sign out; ends the session on the server",
          tags: ["Accounts"],
          responses: {
            204: { description: "signed out; the cookie is cleared", headers: signedIn },
            403: err(["CROSS_SITE_REQUEST"]),
          },
        },
      },
      "/api/v1/me": { get: sessionOp("me", "Accounts", "The signed-in account", { 200: json("Me", "the account") }) },
      "/api/v1/auth/session": {
        get: {
          operationId: "authSession",
          summary: "Who is signed in, if anyone: never a 401, so a signed-out page logs no error",
          tags: ["Accounts"],
          security: [{ session: [] }, {}],
          responses: {
            200: {
              description: "the account of the session cookie, or account null (no, unknown or expired cookie)",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["account"],
                    properties: { account: { anyOf: [{ $ref: "#/components/schemas/Me" }, { type: "null" }] } },
                  },
                },
              },
            },
          },
        },
      },
      "/api/v1/auth/providers": {
        get: {
          operationId: "authProviders",
          summary: "Sign-in methods: password, and the identity provider when configured",
          tags: ["Accounts"],
          responses: { 200: json("Providers", "what the sign-in page offers") },
        },
      },
      "/api/v1/auth/oidc/start": {
        get: {
          operationId: "oidcStart",
          summary: "Sign in through the configured identity provider (redirect)",
          tags: ["Accounts"],
          responses: {
            302: { description: "to the identity provider, or to /signin?error=<code>&message=<text>" },
            404: err(["not_found"], " (not configured)"),
          },
        },
      },
      "/api/v1/auth/oidc/callback": {
        get: {
          operationId: "oidcCallback",
          summary: "Identity provider callback (redirect)",
          tags: ["Accounts"],
          responses: {
            302: {
              description:
                "to / signed in (sets auth_token), or to /signin?error=<code>&message=<text> with one of access_denied, invalid_state, oidc_failed, email_not_verified, domain_not_allowed",
            },
            404: err(["not_found"], " (not configured)"),
          },
        },
      },
      "/api/v1/research": { post: runOp("session", false, "research", "The web client's run (session cookie)") },
      "/api/v1/research/stream": {
        post: runOp("session", true, "researchStream", "The web client's streamed run (session cookie)"),
      },
      ...servicePaths(),
    },
  };
}
