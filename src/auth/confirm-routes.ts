import { ConfirmBodySchema, ResendBodySchema } from "../contract/auth.ts";
import { AppError } from "../contract/errors.ts";
import { BODY_TOO_LARGE, err, header, json as jsonAnswer, publicOp, retry } from "../contract/openapi-operations.ts";
import { NO_STORE } from "../http/responses.ts";
import type { Declaration, Handler } from "../http/route.ts";
import type { Store } from "../store/types.ts";
import { type Account, getAccount } from "./accounts.ts";
import type { Audit } from "./audit/audit.ts";
import { normalizeEmail } from "./email.ts";
import { CONFIRM_PATH, type EmailConfirmation } from "./email-confirm.ts";
import type { SignupRate } from "./signup-limits.ts";

const CONFIRM = publicOp(
  "confirmEmail",
  "Accounts",
  "Open the mailed link (redirect to the page that confirms; opening it confirms nothing)",
  {
    302: {
      description:
        "to /confirm#token=<token>, where the holder of the link chooses the password (POST /api/v1/auth/confirm), or to /signin?error=confirmation_invalid&message=<text> (unknown, used or expired link)",
    },
    404: err(["not_found"], " (mail is not configured: SMTP_URL)"),
  },
);
const CONFIRM_POST = publicOp(
  "confirmEmailWithPassword",
  "Accounts",
  "Confirm a sign-up's address with the mailed link's token and set the account's password (signs in)",
  {
    200: jsonAnswer("Me", "confirmed and signed in", { "Set-Cookie": header("Set-Cookie") }),
    400: err(["invalid_request", "confirmation_invalid"], ` (${BODY_TOO_LARGE})`),
    403: err(["CROSS_SITE_REQUEST"]),
    404: err(["not_found"], " (mail is not configured: SMTP_URL)"),
    429: err(["too_many_signups"], " (the server is busy hashing passwords)", retry),
  },
  {
    requestBody: {
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ConfirmBody" } } },
    },
  },
);
const RESEND = publicOp(
  "resendConfirmation",
  "Accounts",
  "Mail another confirmation link to an address waiting for one (the same answer whether or not it has an account)",
  {
    202: {
      description:
        "if the address has an account waiting for confirmation, a link is on its way (at most one a minute, three an hour)",
    },
    400: err(["invalid_request"], ` (${BODY_TOO_LARGE})`),
    403: err(["CROSS_SITE_REQUEST"]),
    404: err(["not_found"], " (mail is not configured: SMTP_URL)"),
    429: err(["too_many_signups"], " (asking costs a sign-up of SIGNUP_PER_HOUR)", retry),
    502: err(["mail_failed"]),
  },
  {
    requestBody: {
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ResendBody" } } },
    },
  },
);
/** The routes' declarations; the sign-in routes list them first (auth-routes.ts), with these handlers. */
export const CONFIRM_DECLARED = {
  confirmEmail: { method: "GET", path: CONFIRM_PATH, auth: "none", body: "none", operation: CONFIRM },
  confirmEmailWithPassword: {
    method: "POST",
    path: CONFIRM_PATH,
    auth: "none",
    body: "json",
    schema: ConfirmBodySchema,
    operation: CONFIRM_POST,
  },
  resendConfirmation: {
    method: "POST",
    path: `${CONFIRM_PATH}/resend`,
    auth: "none",
    body: "json",
    schema: ResendBodySchema,
    operation: RESEND,
  },
} as const satisfies Record<string, Declaration>;
type Declared = typeof CONFIRM_DECLARED;

const redirect = (location: string) => new Response(null, { status: 302, headers: { location, ...NO_STORE } });
const INVALID =
  "This confirmation link is unknown, used or expired. If you confirmed already, sign in; else sign up again or ask for another link.";

/** Confirming a sign-up's address by the mailed link (README "Accounts: sign-up and sign-in"). */
export function confirmHandlers(deps: {
  store: Store;
  confirmation: EmailConfirmation | null;
  signups: SignupRate;
  client: (request: Request) => string;
  /** The password hash, queued with the sign-ups' (PasswordWork). */
  hash: (password: string) => Promise<string>;
  audit: Audit;
  /** A session for the account, while it still has the password hash just set. */
  signIn: (acc: Account, passwordHash: string, request: Request) => Promise<Response>;
}): { [K in keyof Declared]: Handler<Account, Declared[K]> } {
  const required = () => {
    if (!deps.confirmation) throw new AppError("not_found", "mail is not configured on this server");
    return deps.confirmation;
  };
  return {
    confirmEmail: async ({ request }) => {
      // Threat: a mail scanner's GET, or the victim's click, activating a squatter's password.
      // Opening the link only leads to the page where its holder chooses the password.
      const token = new URL(request.url).searchParams.get("token");
      return (await required().isLive(token))
        ? redirect(`/confirm#token=${encodeURIComponent(token!)}`)
        : redirect(`/signin?error=confirmation_invalid&message=${encodeURIComponent(INVALID)}`);
    },
    confirmEmailWithPassword: async ({ body, request }) => {
      const confirmation = required();
      // A dead token costs no argon2 hash: only a link's holder makes the server hash.
      if (!(await confirmation.isLive(body.token))) throw new AppError("confirmation_invalid", INVALID);
      const passwordHash = await deps.hash(body.password);
      // The link's account is the entry's actor, filled in by the store that finds it.
      const note = deps.audit.note("email_confirmed", request, null);
      const accountId = await confirmation.confirm(body.token, passwordHash, note);
      const acc = accountId && (await getAccount(deps.store, accountId));
      if (!acc) throw new AppError("confirmation_invalid", INVALID);
      deps.audit.logged({ ...note, actorId: acc.id, actor: acc.email });
      return deps.signIn(acc, passwordHash, request);
    },
    resendConfirmation: async ({ body, request }) => {
      const confirmation = required();
      // Threat: a stranger flooding someone's mailbox; each ask costs this client a sign-up too.
      await deps.signups.take(deps.client(request));
      await confirmation.resend(normalizeEmail(body.email));
      return new Response(null, { status: 202 });
    },
  };
}
