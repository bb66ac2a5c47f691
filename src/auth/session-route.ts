import { Elysia } from "elysia";
import { SessionStatusSchema } from "../contract/auth.ts";
import { type ApiPaths, json as jsonAnswer, OPTIONAL_COOKIE, publicOp } from "../contract/openapi-operations.ts";
import { json } from "../http/responses.ts";
import type { Store } from "../store/types.ts";
import { sessionAccount } from "./session-cookie.ts";

/** The route's OpenAPI operation: its summary and answer are this one object. */
const AUTH_SESSION = publicOp(
  "authSession",
  "Accounts",
  "Who is signed in, if anyone: never a 401, so a signed-out page logs no error",
  {
    200: jsonAnswer(
      "SessionStatus",
      "the account of the session cookie, or account null (no, unknown or expired cookie)",
    ),
  },
  { security: OPTIONAL_COOKIE },
);
export const SESSION_OPERATIONS: ApiPaths = { "/api/v1/auth/session": { get: AUTH_SESSION } };

/**
 * "Who am I, if anyone" for the web app. Signed out is an ordinary answer here (200 with
 * account null), not a 401 as on /api/v1/me: a browser logs every 4xx as a console error, so
 * probing the session with /me made each signed-out visit look broken. The answer names no
 * one to a page of another site: the route is outside CORS and the cookie is SameSite=Lax.
 */
export function sessionRoute(deps: { store: Store }) {
  return new Elysia({ name: "session-route" }).get(
    "/api/v1/auth/session",
    async ({ request }) =>
      json({ account: await sessionAccount(deps.store, request) }, 200, { "cache-control": "no-store" }),
    { response: SessionStatusSchema, detail: AUTH_SESSION },
  );
}
