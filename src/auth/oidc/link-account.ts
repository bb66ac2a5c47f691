import { AppError } from "../../contract/errors.ts";
import { isStorableText } from "../../contract/storable-text.ts";
import type { AuditNote, Store } from "../../store/types.ts";
import type { Plan } from "../accounts.ts";
import { emailProblem, normalizeEmail } from "../email.ts";
import type { OidcIdentity } from "./client.ts";

/** Who may sign in through the provider, and what a new account gets. */
export interface LinkPolicy {
  defaultPlan: Plan;
  /** Lower-cased email domains; empty means any. */
  allowedDomains: string[];
}

/** OIDC_ALLOWED_DOMAINS ("acme.com, @Acme.org") as lower-cased domains without "@". */
export function parseAllowedDomains(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
    .filter(Boolean);
}

/**
 * The domain allow-list looks at the verified email only: an unverified address is a
 * claim anyone can type into their IdP profile. Domains match exactly (no subdomains),
 * so "acme.com" does not admit "evil-acme.com" or "x.acme.com".
 */
function checkDomain(email: string | undefined, verified: boolean, allowed: string[]): void {
  if (!allowed.length) return;
  const domain = email?.slice(email.lastIndexOf("@") + 1);
  if (!email || !verified || !domain || !allowed.includes(domain)) {
    throw new AppError("domain_not_allowed", "Your email domain is not allowed to sign in here.");
  }
}

/**
 * The account a verified identity signs in to (the rules: IdentitiesTable.link). The
 * domain allow-list is checked first, on the verified email only.
 */
export async function accountForIdentity(store: Store, id: OidcIdentity, policy: LinkPolicy): Promise<string> {
  return (await linkIdentity(store, id, policy)).accountId;
}

/** `accountForIdentity`, saying whether the account was made or taken over; `audit` records either. */
export async function linkIdentity(
  store: Store,
  id: OidcIdentity,
  policy: LinkPolicy,
  audit?: AuditNote,
): Promise<{ accountId: string; created?: boolean; replaced?: boolean }> {
  // Threat: a provider's subject PostgreSQL cannot hold failing the sign-in with a 500 there and
  // stored altered on SQLite (docs/decisions/0100-text-a-database-cannot-hold.md).
  if (!isStorableText(id.subject))
    throw new AppError("oidc_failed", "The identity provider sent a subject with NUL or an unpaired surrogate.");
  // An address with invisible or look-alike characters is no address: it could otherwise be
  // linked to the account of the plain address it imitates (src/auth/email.ts).
  const usable = !!id.email && !emailProblem(id.email);
  const email = usable ? normalizeEmail(id.email!) : undefined;
  checkDomain(email, id.emailVerified, policy.allowedDomains);
  const out = await store.identities.link(
    { issuer: id.issuer, subject: id.subject, email, emailVerified: id.emailVerified },
    policy.defaultPlan,
    audit,
  );
  if ("accountId" in out) return out;
  if (out.refused === "no_email")
    throw new AppError(
      "oidc_failed",
      id.email
        ? "The identity provider's email address contains invisible or look-alike characters."
        : "The identity provider did not share an email address.",
    );
  throw new AppError(
    "email_not_verified",
    "An account with this email already exists, and the identity provider has not verified the email, so they can't be linked.",
  );
}
