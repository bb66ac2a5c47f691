import { Type as T } from "@sinclair/typebox";
import {
  BODY_TOO_LARGE,
  err,
  header,
  json,
  OPTIONAL_COOKIE,
  type Operation,
  pathParam,
  publicOp,
  retry,
  sessionOp,
  text,
} from "./openapi-operations.ts";
import { ref } from "./openapi-schemas.ts";

// The operations of the Console, the accounts and the service (the run operations: openapi-runs.ts).

type Paths = Record<string, Record<string, Operation>>;

/** /api/console/*: keys, usage, run timelines, by session cookie. */
export function consolePaths(): Paths {
  return {
    "/api/console/keys": {
      get: sessionOp("listKeys", "Console", "List the account's keys, newest first", {
        200: json("KeyList", "the keys; never the full key"),
      }),
      post: sessionOp(
        "createKey",
        "Console",
        "Create a key; the full key is returned once",
        {
          201: json("CreatedKey", "the new key, with the full key this once"),
          400: err(["invalid_request"], ` (not a JSON object, a name over 100 characters, ${BODY_TOO_LARGE})`),
        },
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
  };
}

/** /api/v1/auth/* and /api/v1/me: the web client's accounts (the body-taking ones say the size limit). */
export function accountPaths(): Paths {
  const signedIn = { "Set-Cookie": header("Set-Cookie") };
  const credentials = { required: true, content: { "application/json": { schema: ref("Credentials") } } };
  return {
    "/api/v1/auth/signup": {
      post: publicOp(
        "signup",
        "Accounts",
        "Create an account and sign in (sets auth_token)",
        {
          201: json("Me", "signed in", signedIn),
          400: err(["invalid_request"], ` (${BODY_TOO_LARGE})`),
          403: err(["CROSS_SITE_REQUEST", "signup_not_allowed"]),
          409: err(["email_taken"]),
          429: err(["too_many_signups"], "", retry),
        },
        { requestBody: credentials },
      ),
    },
    "/api/v1/auth/login": {
      post: publicOp(
        "login",
        "Accounts",
        "Sign in (sets auth_token)",
        {
          200: json("Me", "signed in", signedIn),
          400: err(["invalid_request"], ` (${BODY_TOO_LARGE})`),
          401: err(["invalid_credentials"]),
          403: err(["CROSS_SITE_REQUEST"]),
          429: err(["too_many_attempts"], "", retry),
        },
        { requestBody: credentials },
      ),
    },
    "/api/v1/auth/logout": {
      post: publicOp(
        "logout",
        "Accounts",
        "Sign out; ends the session on the server",
        {
          204: { description: "signed out; the cookie is cleared", headers: signedIn },
          403: err(["CROSS_SITE_REQUEST"]),
        },
        { security: OPTIONAL_COOKIE },
      ),
    },
    "/api/v1/me": { get: sessionOp("me", "Accounts", "The signed-in account", { 200: json("Me", "the account") }) },
    "/api/v1/auth/session": {
      get: publicOp(
        "authSession",
        "Accounts",
        "Who is signed in, if anyone: never a 401, so a signed-out page logs no error",
        {
          200: json(
            "SessionStatus",
            "the account of the session cookie, or account null (no, unknown or expired cookie)",
          ),
        },
        { security: OPTIONAL_COOKIE },
      ),
    },
    "/api/v1/auth/providers": {
      get: publicOp(
        "authProviders",
        "Accounts",
        "Sign-in methods: password, and the identity provider when configured",
        {
          200: json("Providers", "what the sign-in page offers"),
        },
      ),
    },
    "/api/v1/auth/oidc/start": {
      get: publicOp("oidcStart", "Accounts", "Sign in through the configured identity provider (redirect)", {
        302: { description: "to the identity provider, or to /signin?error=<code>&message=<text>" },
        404: err(["not_found"], " (not configured)"),
      }),
    },
    "/api/v1/auth/oidc/callback": {
      get: publicOp("oidcCallback", "Accounts", "Identity provider callback (redirect)", {
        302: {
          description:
            "to / signed in (sets auth_token), or to /signin?error=<code>&message=<text> with one of access_denied, invalid_state, oidc_failed, email_not_verified, domain_not_allowed",
        },
        404: err(["not_found"], " (not configured)"),
      }),
    },
  };
}

/** Health, the document itself, the reference page and metrics. */
export function servicePaths(): Paths {
  return {
    "/healthz": {
      get: publicOp("health", "Service", "Health", {
        200: json("Health", "ok once the database is open and migrated"),
      }),
    },
    "/openapi.json": {
      get: publicOp("openApi", "Service", "This document", {
        200: json(T.Object({}, { additionalProperties: true }), "the OpenAPI 3.1 document"),
      }),
    },
    "/docs": {
      get: publicOp("apiReference", "Service", "A readable API reference rendered from this document", {
        200: text("text/html", "the reference page; no script"),
      }),
    },
    "/metrics": {
      get: publicOp("metrics", "Service", "Prometheus metrics", {
        200: text("text/plain", "Prometheus text exposition format 0.0.4"),
      }),
    },
  };
}
