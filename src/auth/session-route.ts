import { SessionStatusSchema } from "../contract/auth.ts";
import { json as jsonAnswer, OPTIONAL_COOKIE, publicOp } from "../contract/openapi-operations.ts";
import { json, NO_STORE } from "../http/responses.ts";
import { routes } from "../http/route.ts";
import type { Account } from "./accounts.ts";

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

/**
 * "Who am I, if anyone" for the web app. Signed out is an ordinary answer here (200 with
 * account null), not a 401 as on /api/v1/me: a browser logs every 4xx as a console error, so
 * probing the session with /me made each signed-out visit look broken. The answer names no
 * one to a page of another site: the route is outside CORS and the cookie is SameSite=Lax.
 */
export const SESSION_ROUTES = routes<Account>()(
  {
    authSession: {
      method: "GET",
      path: "/api/v1/auth/session",
      auth: "optional-session",
      body: "none",
      response: SessionStatusSchema,
      operation: AUTH_SESSION,
    },
  },
  (_deps: unknown) => ({
    authSession: ({ account }) => json({ account }, 200, NO_STORE),
  }),
);
