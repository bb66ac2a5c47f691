import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/open.ts";
import { accounts, identities } from "../../db/schema.ts";
import { nowIso } from "../../util/time.ts";
import { normalizeEmail, type Plan } from "../accounts.ts";
import type { OidcIdentity } from "./client.ts";

/** Why a verified identity may still not sign in (shown on the sign-in page). */
export class OidcDenied extends Error {
  constructor(readonly code: "email_not_verified" | "domain_not_allowed" | "oidc_failed", message: string) {
    super(message);
    this.name = "OidcDenied";
  }
}

/**
 * The account for a verified identity: the one linked to (issuer, subject); else the
 * account with the same email, linked only when the provider vouches for the email
 * (otherwise anyone could claim an existing user's address at their own IdP); else a new
 * account on the default plan. One synchronous transaction: nothing is half-created.
 */
export function accountForIdentity(db: Db, id: OidcIdentity, o: { defaultPlan: Plan; allowedDomains: string[] }): string {
  const email = id.email ? normalizeEmail(id.email) : undefined;
  if (o.allowedDomains.length) {
    const domain = email?.split("@")[1];
    if (!email || !id.emailVerified || !domain || !o.allowedDomains.includes(domain)) {
      throw new OidcDenied("domain_not_allowed", "this identity provider account is not in an allowed email domain");
    }
  }
  return db.transaction((tx) => {
    const linked = tx.select().from(identities).where(and(eq(identities.issuer, id.issuer), eq(identities.subject, id.subject))).get();
    if (linked) return linked.accountId;
    if (!email) throw new OidcDenied("oidc_failed", "the identity provider did not share an email address");
    const existing = tx.select().from(accounts).where(eq(accounts.email, email)).get();
    let accountId: string;
    if (existing) {
      if (!id.emailVerified) throw new OidcDenied("email_not_verified", "an account with this email exists; the identity provider has not verified the email, so it can't be linked");
      accountId = existing.id;
    } else {
      accountId = crypto.randomUUID();
      tx.insert(accounts).values({ id: accountId, email, passwordHash: null, plan: o.defaultPlan, createdAt: nowIso() }).run();
    }
    tx.insert(identities).values({ id: crypto.randomUUID(), accountId, issuer: id.issuer, subject: id.subject, email, createdAt: nowIso() }).run();
    return accountId;
  }, { behavior: "immediate" });
}
