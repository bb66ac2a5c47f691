import type { ApiPaths } from "./openapi-operations.ts";
import { componentSchemas, type JsonSchema } from "./openapi-schemas.ts";
import { withSharedAnswers } from "./openapi-shared.ts";

/**
 * The OpenAPI 3.1 document of every endpoint (README "The API"), generated from the contract's
 * schemas: components.schemas are the named TypeBox schemas, and operations refer to them.
 * The operations are declared beside their routes; the composition root, which knows the
 * routes, passes them in (src/server/api-document.ts).
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
  paths: ApiPaths;
}

/** The document over `paths`, every operation given the answers all of them share. */
export function openApiDocument(serverUrl: string, paths: ApiPaths): OpenApiDocument {
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
      {
        name: "Collections",
        description: "The caller's collections and every shared one, and their documents (session cookie)",
      },
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
        "RateLimit-Policy": {
          description:
            'The allowance (IETF httpapi RateLimit fields): `"monthly";q=<the plan\'s runs a month>;w=<seconds of this UTC month>`. On every answer of a query endpoint past the key check; absent when the key was refused',
          schema: { type: "string", pattern: '^"monthly";q=\\d+;w=\\d+$' },
        },
        RateLimit: {
          description:
            'What is left of it: `"monthly";r=<runs left, this call counted>;t=<seconds until it resets at the start of the next UTC month>`, as the Console\'s allowance shows it. r is 0 on a 429, whose Retry-After equals t; a replay or a resume is not charged and reports the allowance as it stands',
          schema: { type: "string", pattern: '^"monthly";r=\\d+;t=\\d+$' },
        },
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
    paths: withSharedAnswers(paths),
  };
}
