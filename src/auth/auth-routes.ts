import { publicUrl } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { CredentialsSchema, MeSchema } from "../contract/auth.ts";
import { AppError } from "../contract/errors.ts";
import {
  BODY_TOO_LARGE,
  err,
  header,
  json as jsonAnswer,
  OPTIONAL_COOKIE,
  publicOp,
  retry,
  sessionOp,
} from "../contract/openapi-operations.ts";
import { ref } from "../contract/openapi-schemas.ts";
import { clientIp, forwardedButUntrusted, limitKey } from "../http/client-ip.ts";
import { json, NO_STORE } from "../http/responses.ts";
import { routes } from "../http/route.ts";
import type { AuditNote, Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";
import { type Account, createAccount, verifyCredentials } from "./accounts.ts";
import { Audit } from "./audit/audit.ts";
import { CONFIRM_DECLARED, confirmHandlers } from "./confirm-routes.ts";
import { DEVICE_COOKIE, DeviceCookies, deviceCookie } from "./device-cookie.ts";
import { normalizeEmail } from "./email.ts";
import { EmailConfirmation, LINK_TTL_MS } from "./email-confirm.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import type { Mailer } from "./mailer.ts";
import { PasswordWork } from "./password-work.ts";
import { signingSecret } from "./secret.ts";
import { clearedSessionCookie, cookieValue, sessionCookie, sessionToken } from "./session-cookie.ts";
import { createSession, endSession } from "./sessions.ts";
import { SignupRate, signupPolicy } from "./signup-limits.ts";

// Each route's OpenAPI operation, beside it: its summary, body and answers are this one object.
const signedIn = { "Set-Cookie": header("Set-Cookie") };
const credentials = { required: true, content: { "application/json": { schema: ref("Credentials") } } };
const SIGNUP = publicOp(
  "signup",
  "Accounts",
  "Create an account and sign in (sets auth_token)",
  {
    201: jsonAnswer("Me", "signed in", signedIn),
    202: jsonAnswer("SignupPending", "with SMTP_URL set: a link to confirm the address was mailed; no session yet"),
    400: err(["invalid_request"], ` (${BODY_TOO_LARGE})`),
    403: err(["CROSS_SITE_REQUEST", "signup_not_allowed"]),
    409: err(["email_taken"]),
    429: err(["too_many_signups"], "", retry),
    502: err(["mail_failed"]),
  },
  { requestBody: credentials },
);
const LOGIN = publicOp(
  "login",
  "Accounts",
  "Sign in (sets auth_token)",
  {
    200: jsonAnswer("Me", "signed in", signedIn),
    400: err(["invalid_request"], ` (${BODY_TOO_LARGE})`),
    401: err(["invalid_credentials"]),
    403: err(["CROSS_SITE_REQUEST", "email_not_confirmed"]),
    429: err(["too_many_attempts"], "", retry),
  },
  { requestBody: credentials },
);
const LOGOUT = publicOp(
  "logout",
  "Accounts",
  "Sign out; ends the session on the server",
  {
    204: { description: "signed out; the cookie is cleared", headers: signedIn },
    403: err(["CROSS_SITE_REQUEST"]),
  },
  { security: OPTIONAL_COOKIE },
);
const ME = sessionOp("me", "Accounts", "The signed-in account", { 200: jsonAnswer("Me", "the account") });
/** What the sign-in routes need; the server's wiring (server/deps.ts) supplies it. */
export interface AuthDeps {
  config: Config;
  store: Store;
  logger: Logger;
  throttle: LoginThrottle;
  /** The SMTP mailer (SMTP_URL), or null: then sign-up addresses are not confirmed. */
  mailer: Mailer | null;
}

/** Password accounts and sessions (README "The API"); the address confirmation's routes first. */
export const AUTH_ROUTES = routes<Account>()(
  {
    ...CONFIRM_DECLARED,
    signup: {
      method: "POST",
      path: "/api/v1/auth/signup",
      auth: "none",
      body: "json",
      schema: CredentialsSchema,
      operation: SIGNUP,
    },
    login: {
      method: "POST",
      path: "/api/v1/auth/login",
      auth: "none",
      body: "json",
      schema: CredentialsSchema,
      operation: LOGIN,
    },
    logout: { method: "POST", path: "/api/v1/auth/logout", auth: "none", body: "json", operation: LOGOUT },
    me: { method: "GET", path: "/api/v1/me", auth: "session", body: "none", response: MeSchema, operation: ME },
  },
  (deps: AuthDeps) => {
    const cfg = deps.config;
    const secure = publicUrl(cfg).startsWith("https:");
    const work = new PasswordWork();
    const hash = (password: string) => work.hash(password);
    const verify = (password: string, h: string) => work.verify(password, h);
    const mayJoin = signupPolicy(cfg);
    const audit = new Audit(cfg, deps.logger);
    const signups = new SignupRate(cfg.SIGNUP_PER_HOUR, Date.now, deps.store.signupBuckets);
    const confirmation = deps.mailer && new EmailConfirmation(deps.store, deps.mailer, publicUrl(cfg), deps.logger);
    const devices = Promise.resolve(signingSecret(deps.store, cfg.SESSION_SECRET)).then((s) => new DeviceCookies(s));
    devices.catch((e: unknown) => deps.logger.error("signing_secret_failed", { error: String(e) }));

    let warned = false;
    const client = (request: Request): string => {
      if (!warned && forwardedButUntrusted(request, cfg)) {
        warned = true;
        deps.logger.warn("trust_proxy_unset", {
          message: "X-Forwarded-For is ignored without TRUST_PROXY: every client behind the proxy shares its limits",
        });
      }
      return limitKey(clientIp(request, cfg));
    };

    // The device cookie names the email as typed (normalised), which is what the next sign-in sends.
    // `passwordHash` is the one verified (or just set): no session once the account lost it.
    // `request` null: a sign-up's own session, which its `signup` entry already records.
    const signIn = async (
      acc: Account,
      status: number,
      passwordHash: string,
      request: Request | null,
      email = acc.email,
    ) => {
      const note = request ? audit.note("signin", request, acc, { detail: "password" }) : undefined;
      const session = await createSession(deps.store, acc.id, cfg.SESSION_TTL_DAYS, { passwordHash }, note);
      if (!session) throw new AppError("invalid_credentials", "wrong email or password");
      audit.logged(note);
      const { token, expiresAt } = session;
      const res = json(acc, status, {
        "set-cookie": sessionCookie(token, expiresAt, secure),
        ...NO_STORE,
      });
      res.headers.append("set-cookie", deviceCookie((await devices).issue(email), secure));
      return res;
    };

    return {
      ...confirmHandlers({
        store: deps.store,
        confirmation,
        signups,
        client,
        hash,
        audit,
        signIn: (acc, passwordHash, request) => signIn(acc, 200, passwordHash, request),
      }),
      signup: async ({ body, request }) => {
        const email = normalizeEmail(body.email);
        mayJoin(email);
        await signups.take(client(request));
        // A pending account whose link lapsed holds its address no longer (nobody proved it).
        await deps.store.accounts.removePending(email, new Date(Date.now() - LINK_TTL_MS).toISOString());
        let note: AuditNote | undefined;
        const signedUp = (a: Account) => {
          note = audit.note("signup", request, a);
          return note;
        };
        if (!confirmation) {
          const passwordHash = await hash(body.password);
          const made = await createAccount(
            deps.store,
            body.email,
            body.password,
            cfg.DEFAULT_PLAN,
            async () => passwordHash,
            "unproven",
            signedUp,
          );
          audit.logged(note);
          return signIn(made, 201, passwordHash, null);
        }
        // Threat: a squatter's pending sign-up holding the address against its owner for a day.
        // Signing up again takes it back (new password, only the new link works).
        const held = await deps.store.accounts.byEmail(email);
        const pending = held?.emailStatus === "pending" ? held : null;
        const acc =
          pending ??
          (await createAccount(deps.store, body.email, body.password, cfg.DEFAULT_PLAN, hash, "pending", signedUp));
        audit.logged(note);
        try {
          if (pending) await confirmation.retake(pending, await hash(body.password));
          else await confirmation.send(acc);
        } catch (e) {
          if (e instanceof AppError && e.code !== "mail_failed") throw e;
          // Nothing half-made: without its mail the account could never be confirmed.
          await deps.store.accounts.removePending(acc.email, new Date(Date.now() + 60_000).toISOString());
          deps.logger.warn("confirmation_mail_failed", { error: e instanceof Error ? e.message : String(e) });
          throw e;
        }
        return json({ status: "confirmation_sent", email: acc.email }, 202, NO_STORE);
      },
      login: async ({ body, request }) => {
        const email = normalizeEmail(body.email);
        const device = (await devices).deviceFor(cookieValue(request, DEVICE_COOKIE), email);
        const attempt = await deps.throttle.begin({ email, client: client(request), device });
        let checked: Awaited<ReturnType<typeof verifyCredentials>>;
        try {
          checked = await verifyCredentials(deps.store, body.email, body.password, verify);
        } catch (e) {
          await attempt.settle("abandoned");
          throw e;
        }
        const { account: acc, known } = checked;
        await attempt.settle(acc ? "success" : "failure");
        if (!acc) {
          await audit.failedSignin(deps.store, request, known?.email ?? email, known?.id ?? null);
          throw new AppError("invalid_credentials", "wrong email or password");
        }
        // Said only to whoever knows the password: no one learns from it who signed up.
        if (acc.emailStatus === "pending")
          throw new AppError(
            "email_not_confirmed",
            "Confirm your email address first: open the link we mailed to it (you can ask for another one).",
          );
        const { emailStatus: _, passwordHash, ...account } = acc;
        return signIn(account, 200, passwordHash, request, email);
      },
      logout: async ({ request }) => {
        const ended = await endSession(deps.store, sessionToken(request), async (id) => {
          const acc = await deps.store.accounts.byId(id);
          return acc && audit.note("signout", request, acc);
        });
        if (ended) audit.logged(ended);
        return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(secure) } });
      },
      me: ({ account }) => account,
    };
  },
);
