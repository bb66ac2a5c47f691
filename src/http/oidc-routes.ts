import { Elysia } from "elysia";
import * as oauth from "oauth4webapi";
import { OidcClient, type FlowState } from "../auth/oidc/client.ts";
import { accountForIdentity, OidcDenied } from "../auth/oidc/link-account.ts";
import { sign, verify } from "../auth/oidc/signed-cookie.ts";
import { signingSecret } from "../auth/secret.ts";
import { createSession } from "../auth/sessions.ts";
import { publicUrl } from "../config/load.ts";
import { AppError } from "../errors.ts";
import type { AppDeps } from "./deps.ts";
import { json } from "./responses.ts";
import { cookieValue, sessionCookie } from "./session.ts";

const FLOW_COOKIE = "rq_oidc";
const FLOW_PATH = "/api/v1/auth/oidc";

/** Sign-in through the configured identity provider (issue: OpenID Connect). */
export function oidcRoutes(deps: AppDeps) {
  const cfg = deps.config;
  const base = publicUrl(cfg);
  const secure = base.startsWith("https:");
  const enabled = !!(cfg.OIDC_ISSUER && cfg.OIDC_CLIENT_ID && cfg.OIDC_CLIENT_SECRET);
  const client = enabled ? new OidcClient({ issuer: cfg.OIDC_ISSUER!, clientId: cfg.OIDC_CLIENT_ID!, clientSecret: cfg.OIDC_CLIENT_SECRET!, scopes: cfg.OIDC_SCOPES, redirectUri: `${base}${FLOW_PATH}/callback` }) : null;
  const domains = (cfg.OIDC_ALLOWED_DOMAINS ?? "").split(",").map((d) => d.trim().toLowerCase()).filter(Boolean);
  // States already used: a replayed callback must fail even while its cookie is still valid.
  const used = new Map<string, number>();
  const secret = signingSecret(deps.db, cfg.SESSION_SECRET);
  const flowCookie = (value: string, maxAge: number) => `${FLOW_COOKIE}=${value}; Path=${FLOW_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
  const toSignin = (code: string, message: string) => new Response(null, {
    status: 302, headers: [["location", `/signin?error=${encodeURIComponent(code)}&message=${encodeURIComponent(message)}`], ["set-cookie", flowCookie("", 0)], ["cache-control", "no-store"]],
  });

  return new Elysia({ name: "oidc-routes" })
    .get("/api/v1/auth/providers", () => json({ password: true, oidc: enabled ? { name: cfg.OIDC_NAME, start_url: `${FLOW_PATH}/start` } : null }))
    .get(`${FLOW_PATH}/start`, async () => {
      if (!client) throw new AppError("not_found", "no identity provider is configured");
      try {
        const { url, flow } = await client.start();
        return new Response(null, { status: 302, headers: { location: url, "set-cookie": flowCookie(sign({ ...flow }, secret), 600), "cache-control": "no-store" } });
      } catch (e) {
        deps.logger.warn("oidc_start_failed", { error: (e as Error).message });
        return toSignin("oidc_failed", "the identity provider could not be reached");
      }
    })
    .get(`${FLOW_PATH}/callback`, async ({ request }) => {
      if (!client) throw new AppError("not_found", "no identity provider is configured");
      const url = new URL(request.url);
      const flow = verify<FlowState>(cookieValue(request, FLOW_COOKIE), secret);
      if (url.searchParams.get("error") === "access_denied") return toSignin("access_denied", "sign-in was cancelled at the identity provider");
      if (!flow || flow.state !== url.searchParams.get("state") || used.has(flow.state)) return toSignin("invalid_state", "the sign-in link expired or was already used; start again");
      used.set(flow.state, flow.exp);
      for (const [s, exp] of used) if (exp < Date.now()) used.delete(s);
      try {
        const identity = await client.finish(new URL(`${base}${FLOW_PATH}/callback${url.search}`), flow);
        const accountId = accountForIdentity(deps.db, identity, { defaultPlan: cfg.DEFAULT_PLAN, allowedDomains: domains });
        const { token, expiresAt } = createSession(deps.db, accountId, cfg.SESSION_TTL_DAYS);
        return new Response(null, { status: 302, headers: [["location", "/"], ["set-cookie", sessionCookie(token, expiresAt, secure)], ["set-cookie", flowCookie("", 0)], ["cache-control", "no-store"]] });
      } catch (e) {
        if (e instanceof OidcDenied) return toSignin(e.code, e.message);
        if (e instanceof oauth.AuthorizationResponseError && e.error === "access_denied") return toSignin("access_denied", "sign-in was cancelled at the identity provider");
        deps.logger.warn("oidc_callback_failed", { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
        return toSignin("oidc_failed", "the identity provider's answer could not be verified");
      }
    });
}
