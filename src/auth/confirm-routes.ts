import { Elysia } from "elysia";
import { ResendBodySchema } from "../contract/auth.ts";
import { AppError } from "../contract/errors.ts";
import { type ApiPaths, BODY_TOO_LARGE, err, publicOp, retry } from "../contract/openapi-operations.ts";
import { normalizeEmail } from "./email.ts";
import { CONFIRM_PATH, type EmailConfirmation } from "./email-confirm.ts";
import type { SignupRate } from "./signup-limits.ts";

const CONFIRM = publicOp("confirmEmail", "Accounts", "Follow the link that confirms a sign-up's address (redirect)", {
  302: {
    description:
      "to /signin?confirmed=1 (the account can sign in now), or to /signin?error=confirmation_invalid&message=<text> (unknown, used or expired link)",
  },
  404: err(["not_found"], " (mail is not configured: SMTP_URL)"),
});
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
export const CONFIRM_OPERATIONS: ApiPaths = {
  [CONFIRM_PATH]: { get: CONFIRM },
  [`${CONFIRM_PATH}/resend`]: { post: RESEND },
};

const redirect = (location: string) =>
  new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
const INVALID =
  "This confirmation link is unknown, used or expired. If you confirmed already, sign in; else sign up again or ask for another link.";

/** Confirming a sign-up's address by the mailed link (README "Accounts: sign-up and sign-in"). */
export function confirmRoutes(deps: {
  confirmation: EmailConfirmation | null;
  signups: SignupRate;
  client: (request: Request) => string;
}) {
  const required = () => {
    if (!deps.confirmation) throw new AppError("not_found", "mail is not configured on this server");
    return deps.confirmation;
  };
  return new Elysia({ name: "confirm-routes" })
    .get(
      CONFIRM_PATH,
      async ({ request }) => {
        const accountId = await required().confirm(new URL(request.url).searchParams.get("token"));
        return accountId
          ? redirect("/signin?confirmed=1")
          : redirect(`/signin?error=confirmation_invalid&message=${encodeURIComponent(INVALID)}`);
      },
      { detail: CONFIRM },
    )
    .post(
      `${CONFIRM_PATH}/resend`,
      async ({ body, request }) => {
        const confirmation = required();
        // Threat: a stranger flooding someone's mailbox; each ask costs this client a sign-up too.
        await deps.signups.take(deps.client(request));
        await confirmation.resend(normalizeEmail(body.email));
        return new Response(null, { status: 202 });
      },
      { body: ResendBodySchema, detail: RESEND },
    );
}
