import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import { Timestamp } from "./formats.ts";

/**
 * The web client's accounts (README "The API", under /api/v1/): password sign-up and sign-in,
 * the signed-in account, and the sign-in methods the web app can offer. Credentials is
 * used for Elysia's body validation: a plain TypeBox schema from the same install.
 */

/** The plans (README "Configuration": PLAN_RUNS_*); a new account gets DEFAULT_PLAN. */
export const PlanSchema = T.Union([T.Literal("free"), T.Literal("pro"), T.Literal("researcher")], {
  description: "the account's plan; it decides the monthly research runs (PLAN_RUNS_*)",
});

/** Body of POST /api/v1/auth/signup and /api/v1/auth/login. */
export const CredentialsSchema = T.Object(
  {
    email: T.String({ pattern: "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$", maxLength: 254, description: "email address" }),
    password: T.String({ minLength: 8, maxLength: 256, description: "8 to 256 characters" }),
  },
  { description: "email and password" },
);

/** GET /api/v1/me, and the body of a successful sign-up (201) or sign-in (200). */
export const MeSchema = T.Object(
  {
    id: T.String(),
    email: T.String({ description: "normalised: trimmed, NFC and lower-cased" }),
    plan: PlanSchema,
    created_at: Timestamp(),
  },
  { description: "the signed-in account" },
);

/** A sign-up's answer when the address must be confirmed first (202; no session yet). */
export const SignupPendingSchema = T.Object(
  {
    status: T.Literal("confirmation_sent", { description: "a link to confirm the address was mailed to it" }),
    email: T.String({ description: "normalised: trimmed, NFC and lower-cased" }),
  },
  { description: "the account waits for its address to be confirmed; sign-in works once the link is followed" },
);

/** Body of POST /api/v1/auth/confirm/resend. */
export const ResendBodySchema = T.Object(
  { email: T.String({ minLength: 3, maxLength: 254, description: "the address signed up with" }) },
  { description: "the address to mail another confirmation link to" },
);

/** Body of POST /api/v1/auth/confirm: the mailed link's token and the account's password. */
export const ConfirmBodySchema = T.Object(
  {
    token: T.String({ minLength: 1, maxLength: 200, description: "the token= of the mailed link" }),
    password: T.String({
      minLength: 8,
      maxLength: 256,
      description: "the account's password from now on (8 to 256 characters); it replaces the one given at sign-up",
    }),
  },
  { description: "confirms the address and sets the password: whoever holds the link chooses it" },
);

/** GET /api/v1/auth/session: the signed-in account, or null (never a 401). */
export const SessionStatusSchema = T.Object(
  { account: T.Union([MeSchema, T.Null()], { description: "the signed-in account, or null when signed out" }) },
  { description: "who is signed in, if anyone" },
);

/** The identity provider's button, when one is configured. */
export const OidcProviderSchema = T.Object({
  name: T.String({ description: "OIDC_NAME: the label of the sign-in button" }),
  start_url: T.String({ description: "where the button goes: /api/v1/auth/oidc/start" }),
});

/** GET /api/v1/auth/providers: which sign-in methods the web app shows. */
export const ProvidersSchema = T.Object(
  {
    password: T.Boolean({ description: "email and password sign-in; always true" }),
    oidc: T.Union([OidcProviderSchema, T.Null()], { description: "the configured identity provider, or null" }),
  },
  { description: "the sign-in methods the web app can offer" },
);

/** The codes the sign-in page receives in /signin?error=<code>&message=<text> after OIDC. */
export const SIGNIN_ERROR_CODES = [
  "access_denied",
  "invalid_state",
  "oidc_failed",
  "email_not_verified",
  "domain_not_allowed",
  "confirmation_invalid",
] as const;

export type Plan = Static<typeof PlanSchema>;
export type Me = Static<typeof MeSchema>;
export type SignupPending = Static<typeof SignupPendingSchema>;
export type Providers = Static<typeof ProvidersSchema>;

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const AUTH_SCHEMAS = {
  Plan: PlanSchema,
  Credentials: CredentialsSchema,
  Me: MeSchema,
  SignupPending: SignupPendingSchema,
  ResendBody: ResendBodySchema,
  ConfirmBody: ConfirmBodySchema,
  SessionStatus: SessionStatusSchema,
  OidcProvider: OidcProviderSchema,
  Providers: ProvidersSchema,
} as const satisfies Record<string, TSchema>;
