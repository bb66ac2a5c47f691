import { Elysia } from "elysia";
import { publicUrl } from "../config/load.ts";
import { CredentialsSchema, MeSchema } from "../contract/auth.ts";
import { AppError } from "../contract/errors.ts";
import { clientIp, forwardedButUntrusted, limitKey } from "../server/client-ip.ts";
import type { AppDeps } from "../server/deps.ts";
import { json } from "../server/responses.ts";
import { createAccount, verifyCredentials } from "./accounts.ts";
import { normalizeEmail } from "./email.ts";
import { clearedSessionCookie, requireAccount, sessionCookie, sessionToken } from "./session-cookie.ts";
import { createSession, endSession } from "./sessions.ts";

/** Password accounts and sessions (README "The API"). */
export function authRoutes(deps: AppDeps) {
  const secure = publicUrl(deps.config).startsWith("https:");
  const signIn = async (accountId: string, status: number, body: unknown) => {
    const { token, expiresAt } = await createSession(deps.store, accountId, deps.config.SESSION_TTL_DAYS);
    return json(body, status, { "set-cookie": sessionCookie(token, expiresAt, secure), "cache-control": "no-store" });
  };
  let warned = false;
  const client = (request: Request): string => {
    if (!warned && forwardedButUntrusted(request, deps.config)) {
      warned = true;
      deps.logger.warn("trust_proxy_unset", {
        message: "X-Forwarded-For is ignored without TRUST_PROXY: every client behind the proxy shares its limits",
      });
    }
    return limitKey(clientIp(request, deps.config));
  };
  return new Elysia({ name: "auth-routes" })
    .post(
      "/api/v1/auth/signup",
      async ({ body }) => {
        const acc = await createAccount(deps.store, body.email, body.password, deps.config.DEFAULT_PLAN);
        return signIn(acc.id, 201, acc);
      },
      { body: CredentialsSchema, detail: { summary: "Create an account and sign in" } },
    )
    .post(
      "/api/v1/auth/login",
      async ({ body, request }) => {
        const email = normalizeEmail(body.email);
        const address = client(request);
        deps.throttle.check(email, address);
        const acc = await verifyCredentials(deps.store, body.email, body.password);
        if (!acc) {
          deps.throttle.failure(email, address);
          throw new AppError("invalid_credentials", "wrong email or password");
        }
        deps.throttle.success(email);
        return signIn(acc.id, 200, acc);
      },
      { body: CredentialsSchema, detail: { summary: "Sign in with email and password" } },
    )
    .post(
      "/api/v1/auth/logout",
      async ({ request }) => {
        await endSession(deps.store, sessionToken(request));
        return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(secure) } });
      },
      { detail: { summary: "Sign out and end the session" } },
    )
    .get("/api/v1/me", ({ request }) => requireAccount(deps.store, request), {
      response: MeSchema,
      detail: { summary: "The signed-in account" },
    });
}
