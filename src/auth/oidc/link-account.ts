import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/open.ts";
import { accounts, identities } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { nowIso } from "../../util/time.ts";
import { normalizeEmail, type Plan } from "../accounts.ts";
import type { OidcIdentity } from "./client.ts";

/** Who may sign in through the provider, and what a new account gets. */
export interface LinkPolicy {
  defaultPlan: Plan;
  /** Lower-cased email domains; empty means any. */
  allowedDomains: string[];
}

/** OIDC_ALLOWED_DOMAINS ("acme.com, @Acme.org") as lower-cased domains without "@". */
export function parseAllowedDomains(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter(Boolean);
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
 * The account a verified identity signs in to:
 * 1. the one already linked to (issuer, subject) — the provider's stable id, not the email;
 * 2. else the account with the same email, linked only when the provider says the email
 *    is verified (threat: anyone claiming a victim's address at the IdP to take over
 *    their password account);
 * 3. else a new account on the default plan, linked.
 * One synchronous IMMEDIATE transaction: no account without its link, and two
 * concurrent first sign-ins can't both create one.
 */
export function accountForIdentity(db: Db, id: OidcIdentity, policy: LinkPolicy): string {
  const email = id.email ? normalizeEmail(id.email) : undefined;
  checkDomain(email, id.emailVerified, policy.allowedDomains);
  return db.transaction((tx) => {
    const linked = tx.select({ accountId: identities.accountId }).from(identities)
      .where(and(eq(identities.issuer, id.issuer), eq(identities.subject, id.subject))).get();
    if (linked) return linked.accountId;
    if (!email) throw new AppError("oidc_failed", "The identity provider did not share an email address.");
    const existing = tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).get();
    let accountId: string;
    if (existing) {
      if (!id.emailVerified) {
        throw new AppError("email_not_verified", "An account with this email already exists, and the identity provider has not verified the email, so they can't be linked.");
      }
      accountId = existing.id;
    } else {
      accountId = crypto.randomUUID();
      tx.insert(accounts).values({ id: accountId, email, passwordHash: null, plan: policy.defaultPlan, createdAt: nowIso() }).run();
    }
    tx.insert(identities).values({ id: crypto.randomUUID(), accountId, issuer: id.issuer, subject: id.subject, email, createdAt: nowIso() }).run();
    return accountId;
  }, { behavior: "immediate" });
}
