import type { Operation } from "./openapi-operations.ts";
import { accountPaths, consolePaths, servicePaths } from "./openapi-paths.ts";
import { runOp } from "./openapi-runs.ts";
import { componentSchemas, type JsonSchema } from "./openapi-schemas.ts";
import { withSharedAnswers } from "./openapi-shared.ts";

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
            "On every response: the call's request id, to quote when reporting a problem. On the run endpoints it is the envelope's request_id; on a resumed stream or an idempotent retry, the id of the run it answers with.",
          required: true,
          schema: { type: "string", format: "uuid" },
        },
        "Idempotent-Replayed": {
          description: "true when an Idempotency-Key named a run already started: this is that run, not a new one",
          schema: { type: "string", enum: ["true"] },
        },
        "Retry-After": { description: "seconds to wait before trying again", schema: { type: "integer", minimum: 1 } },
        "Set-Cookie": {
          description:
            "auth_token=…; HttpOnly; SameSite=Lax; Path=/ (Secure when PUBLIC_URL is https). A successful login also sets rq_device (HttpOnly, SameSite=Strict, Path=/api/v1/auth/login): this browser's sign-ins to that email are throttled apart from everyone else's (README \"Accounts: sign-up and sign-in\")",
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "API key rq-…" },
        apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        session: { type: "apiKey", in: "cookie", name: "auth_token" },
      },
    },
    paths: apiPaths(),
  };
}

/** Every operation by path: the document's `paths`, and the route patterns /metrics labels by. */
export function apiPaths(): OpenApiDocument["paths"] {
  return withSharedAnswers({
    "/api/query": {
      post: runOp("key", false, "query", "Run a research query; holds the connection until the run finishes"),
    },
    "/api/query/stream": {
      post: runOp("key", true, "queryStream", "Run a research query, streamed as Server-Sent Events"),
    },
    ...consolePaths(),
    ...accountPaths(),
    "/api/v1/research": { post: runOp("session", false, "research", "The web client's run (session cookie)") },
    "/api/v1/research/stream": {
      post: runOp("session", true, "researchStream", "The web client's streamed run (session cookie)"),
    },
    ...servicePaths(),
  });
}
