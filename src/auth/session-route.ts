import { Elysia } from "elysia";
import { SessionStatusSchema } from "../contract/auth.ts";
import { json } from "../http/responses.ts";
import type { Store } from "../store/types.ts";
import { sessionAccount } from "./session-cookie.ts";

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
    { response: SessionStatusSchema, detail: { summary: "The signed-in account, or null" } },
  );
}
