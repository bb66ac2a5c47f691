import type { SIGNIN_ERROR_CODES } from "../../../contract/auth.ts";

type SigninErrorCode = (typeof SIGNIN_ERROR_CODES)[number];

/**
 * What the sign-in page says for each code the identity-provider flow sends in ?error=.
 * Threat: phishing through our own page — /signin?message=… would otherwise print any text
 * a link chooses ("your account is locked, call …") in the app's alert box. Only these texts
 * are ever shown; ?message= and unknown codes are ignored. A code added to the contract fails
 * the typecheck here until it has a text.
 */
const TEXTS: Record<SigninErrorCode, string> = {
  access_denied: "Sign-in was cancelled at the identity provider.",
  invalid_state: "This sign-in link has expired or was already used. Please start again.",
  oidc_failed: "Sign-in through the identity provider failed. Please try again, or ask your administrator.",
  email_not_verified:
    "An account with this email already exists, and the identity provider has not verified the email, so they can't be linked.",
  domain_not_allowed: "Your email domain is not allowed to sign in here.",
  confirmation_invalid:
    "This confirmation link is unknown, used or expired. If you confirmed already, sign in; else sign up again or ask for another link.",
};

/** The fixed text for the page's ?error= code, or null when there is none or it is not ours. */
export function signinNotice(search: string): string | null {
  const code = new URLSearchParams(search).get("error");
  return code && Object.hasOwn(TEXTS, code) ? TEXTS[code as SigninErrorCode] : null;
}
