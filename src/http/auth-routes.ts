import { Elysia, t } from "elysia";
import { createAccount, verifyCredentials, normalizeEmail } from "../auth/accounts.ts";
import { createSession, endSession } from "../auth/sessions.ts";
import { AppError } from "../errors.ts";
import { publicUrl } from "../config/load.ts";
import type { AppDeps } from "./deps.ts";
import { clientIp } from "./client-ip.ts";
import { json } from "./responses.ts";
import { clearedSessionCookie, requireAccount, sessionCookie, sessionToken } from "./session.ts";

export const Credentials = t.Object({
  email: t.String({ pattern: "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$", maxLength: 254, description: "email address" }),
  password: t.String({ minLength: 8, maxLength: 256, description: "8 to 256 characters" }),
});
export const MeResponse = t.Object({ id: t.String(), email: t.String(), plan: t.String(), created_at: t.String() });

/** Password accounts and sessions (CONTRACT §3). */
export function authRoutes(deps: AppDeps) {
  const secure = publicUrl(deps.config).startsWith("https:");
  const signIn = (accountId: string, status: number, body: unknown) => {
    const { token, expiresAt } = createSession(deps.db, accountId, deps.config.SESSION_TTL_DAYS);
    return json(body, status, { "set-cookie": sessionCookie(token, expiresAt, secure), "cache-control": "no-store" });
  };
  return new Elysia({ name: "auth-routes" })
    .post("/api/v1/auth/signup", async ({ body }) => {
      const acc = await createAccount(deps.db, body.email, body.password, deps.config.DEFAULT_PLAN);
      return signIn(acc.id, 201, acc);
    }, { body: Credentials, detail: { summary: "Create an account and sign in" } })
    .post("/api/v1/auth/login", async ({ body, request }) => {
      const email = normalizeEmail(body.email);
      const address = clientIp(request);
      deps.throttle.check(email, address);
      const acc = await verifyCredentials(deps.db, email, body.password);
      if (!acc) {
        deps.throttle.failure(email, address);
        throw new AppError("invalid_credentials", "wrong email or password");
      }
      deps.throttle.success(email);
      return signIn(acc.id, 200, acc);
    }, { body: Credentials, detail: { summary: "Sign in with email and password" } })
    .post("/api/v1/auth/logout", ({ request }) => {
      endSession(deps.db, sessionToken(request));
      return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(secure) } });
    }, { detail: { summary: "Sign out and end the session" } })
    .get("/api/v1/me", ({ request }) => requireAccount(deps.db, request), { response: MeResponse, detail: { summary: "The signed-in account" } });
}
