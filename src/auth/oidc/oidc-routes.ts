import * as oauth from "oauth4webapi";
import { publicUrl } from "../../config/load.ts";
import { SIGNIN_ERROR_CODES } from "../../contract/auth.ts";
import { AppError, type ErrorCode } from "../../contract/errors.ts";
import { err, json as jsonAnswer, publicOp } from "../../contract/openapi-operations.ts";
import { json } from "../../http/responses.ts";
import { routes } from "../../http/route.ts";
import type { Account } from "../accounts.ts";
import { Audit } from "../audit/audit.ts";
import type { AuthDeps } from "../auth-routes.ts";
import { signingSecret } from "../secret.ts";
import { cookieValue, sessionCookie } from "../session-cookie.ts";
import { createSession } from "../sessions.ts";
import { OidcClient, oidcSettings } from "./client.ts";
import { FLOW_TTL_MS, FlowStates } from "./flow-state.ts";
import { linkIdentity, parseAllowedDomains } from "./link-account.ts";

const FLOW_PATH = "/api/v1/auth/oidc";
const FLOW_COOKIE = "rq_oidc";

/** The codes the sign-in page may receive in ?error=; anything else is reported as oidc_failed. */
const SIGNIN_CODES: ReadonlySet<ErrorCode> = new Set(SIGNIN_ERROR_CODES);
const FAILED = "Sign-in through the identity provider failed. Please try again, or ask your administrator.";

// Each route's OpenAPI operation, beside it: its summary and answers are this one object.
const PROVIDERS = publicOp(
  "authProviders",
  "Accounts",
  "Sign-in methods: password, and the identity provider when configured",
  { 200: jsonAnswer("Providers", "what the sign-in page offers") },
);
const OIDC_START = publicOp("oidcStart", "Accounts", "Sign in through the configured identity provider (redirect)", {
  302: { description: "to the identity provider, or to /signin?error=<code>&message=<text>" },
  404: err(["not_found"], " (not configured)"),
});
const OIDC_CALLBACK = publicOp("oidcCallback", "Accounts", "Identity provider callback (redirect)", {
  302: {
    description:
      "to / signed in (sets auth_token), or to /signin?error=<code>&message=<text> with one of access_denied, invalid_state, oidc_failed, email_not_verified, domain_not_allowed",
  },
  404: err(["not_found"], " (not configured)"),
});

/**
 * Sign-in through the configured identity provider (README "Sign-in through your identity provider (OpenID Connect)"), plus
 * GET /api/v1/auth/providers so the web app knows whether to show the button.
 * Every outcome of start and callback is a redirect: to the provider, to / signed in,
 * or to /signin?error=<code>&message=<text> — never a JSON error or a stack trace.
 */
export const OIDC_ROUTES = routes<Account>()(
  {
    authProviders: { method: "GET", path: "/api/v1/auth/providers", auth: "none", body: "none", operation: PROVIDERS },
    oidcStart: { method: "GET", path: `${FLOW_PATH}/start`, auth: "none", body: "none", operation: OIDC_START },
    oidcCallback: {
      method: "GET",
      path: `${FLOW_PATH}/callback`,
      auth: "none",
      body: "none",
      operation: OIDC_CALLBACK,
    },
  },
  (deps: Pick<AuthDeps, "config" | "store" | "logger">) => {
    const cfg = deps.config;
    const base = publicUrl(cfg);
    const secure = base.startsWith("https:");
    const callbackUrl = `${base}${FLOW_PATH}/callback`;
    const settings = oidcSettings(cfg, callbackUrl);
    const client = settings ? new OidcClient(settings) : null;
    // Read (or generated and stored) once, when the routes are built.
    const flowStates = Promise.resolve(signingSecret(deps.store, cfg.SESSION_SECRET)).then((s) => new FlowStates(s));
    flowStates.catch((e: unknown) => deps.logger.error("signing_secret_failed", { error: String(e) }));
    const flows = () => flowStates;
    const policy = { defaultPlan: cfg.DEFAULT_PLAN, allowedDomains: parseAllowedDomains(cfg.OIDC_ALLOWED_DOMAINS) };
    const audit = new Audit(cfg, deps.logger);

    // Scoped to the OIDC paths: the flow secrets travel only to start and callback.
    const flowCookie = (value: string, maxAgeSec: number) =>
      `${FLOW_COOKIE}=${value}; Path=${FLOW_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSec}${secure ? "; Secure" : ""}`;
    const redirect = (location: string, cookies: string[]) =>
      new Response(null, {
        status: 302,
        headers: [
          ["location", location],
          ["cache-control", "no-store"],
          ...cookies.map((c): [string, string] => ["set-cookie", c]),
        ],
      });

    /** Any failure → the sign-in page with a code and a short message; details only in the log. */
    const toSignin = (e: unknown, stage: "start" | "callback") => {
      const known = e instanceof AppError && SIGNIN_CODES.has(e.code);
      const code = known ? e.code : "oidc_failed";
      const detail =
        e instanceof oauth.ResponseBodyError
          ? `${e.error}: ${e.error_description ?? ""}`
          : e instanceof Error
            ? `${e.name}: ${e.message}`
            : String(e);
      deps.logger.warn("oidc_signin_failed", { stage, code, error: detail });
      const message = known ? e.message : FAILED;
      return redirect(`/signin?error=${encodeURIComponent(code)}&message=${encodeURIComponent(message)}`, [
        flowCookie("", 0),
      ]);
    };
    const requireClient = () => {
      if (!client) throw new AppError("not_found", "no identity provider is configured");
      return client;
    };

    return {
      authProviders: () =>
        json({
          password: true,
          oidc: client ? { name: cfg.OIDC_NAME, start_url: `${FLOW_PATH}/start` } : null,
        }),
      oidcStart: async () => {
        const idp = requireClient();
        try {
          const states = await flows();
          const flow = states.create({
            state: oauth.generateRandomState(),
            nonce: oauth.generateRandomNonce(),
            verifier: oauth.generateRandomCodeVerifier(),
          });
          const location = await idp.authorizationUrl(flow);
          return redirect(location, [flowCookie(states.seal(flow), FLOW_TTL_MS / 1000)]);
        } catch (e) {
          return toSignin(e, "start");
        }
      },
      oidcCallback: async ({ request }) => {
        const idp = requireClient();
        try {
          const query = new URL(request.url).searchParams;
          // State first, even for an error answer: an unsolicited callback proves nothing.
          const flow = (await flows()).take(cookieValue(request, FLOW_COOKIE), query.get("state"));
          // Our public address, not request.url: behind a reverse proxy they differ.
          const identity = await idp.finish(new URL(`${callbackUrl}?${query}`), flow);
          // `link` records a new account's `signup` or a takeover itself, in its transaction.
          const linking = audit.note("signup", request, null, { detail: identity.issuer });
          const linked = await linkIdentity(deps.store, identity, policy, linking);
          const accountId = linked.accountId;
          const who = await deps.store.accounts.byId(accountId);
          if (linked.created || linked.replaced)
            audit.logged({
              ...linking,
              action: linked.created ? "signup" : "account_taken_over",
              actorId: accountId,
              actor: who?.email ?? null,
            });
          // A sign-up is recorded as `signup` only, as with a password.
          const note =
            who && !linked.created ? audit.note("signin", request, who, { detail: identity.issuer }) : undefined;
          const session = await createSession(
            deps.store,
            accountId,
            cfg.SESSION_TTL_DAYS,
            { issuer: identity.issuer, subject: identity.subject },
            note,
          );
          // Another identity's takeover unlinked this one after it was checked.
          if (!session) throw new AppError("oidc_failed", "The account changed during sign-in. Please try again.");
          audit.logged(note);
          const { token, expiresAt } = session;
          deps.logger.info("oidc_signin", { account_id: accountId });
          return redirect("/", [sessionCookie(token, expiresAt, secure), flowCookie("", 0)]);
        } catch (e) {
          return toSignin(e, "callback");
        }
      },
    };
  },
);
