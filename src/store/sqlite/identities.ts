import type { Database } from "bun:sqlite";
import type { AuditNote, IdentitiesTable, LinkOutcome } from "../types.ts";
import type { sqliteAccounts } from "./accounts.ts";

/** The `identities` table: accounts linked to an identity provider by (issuer, subject). */
export function sqliteIdentities(
  db: Database,
  accounts: ReturnType<typeof sqliteAccounts>,
  audit: (note: AuditNote) => void,
): IdentitiesTable {
  const linked = db.prepare<{ accountId: string }, [string, string]>(
    "SELECT account_id AS accountId FROM identities WHERE issuer = ? AND subject = ?",
  );
  const insert = db.prepare(
    "INSERT INTO identities (id, account_id, issuer, subject, email, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  // IMMEDIATE: two concurrent first sign-ins of one identity can't both create an account.
  const link = db.transaction(
    (
      claim: Parameters<IdentitiesTable["link"]>[0],
      plan: Parameters<IdentitiesTable["link"]>[1],
      note?: AuditNote,
    ): LinkOutcome => {
      const found = linked.get(claim.issuer, claim.subject);
      if (found) return { accountId: found.accountId };
      if (!claim.email) return { refused: "no_email" };
      const now = new Date().toISOString();
      const existing = accounts.byEmail(claim.email);
      let accountId = existing?.id;
      let replaced = false;
      if (existing) {
        // Threat: someone claiming a victim's address at the IdP to take over their account.
        if (!claim.emailVerified) return { refused: "email_not_verified" };
        // Threat: someone who made an account with the victim's address before the victim came.
        if (existing.emailStatus !== "proven") {
          accounts.revokeCredentials(existing.id, now);
          replaced = true;
        }
      } else {
        accountId = crypto.randomUUID();
        const emailStatus = claim.emailVerified ? "proven" : "unproven";
        accounts.insert({ id: accountId, email: claim.email, passwordHash: null, plan, createdAt: now, emailStatus });
      }
      insert.run(crypto.randomUUID(), accountId!, claim.issuer, claim.subject, claim.email, now);
      const created = !existing;
      if (note && (created || replaced))
        audit({ ...note, action: created ? "signup" : "account_taken_over", actorId: accountId!, actor: claim.email });
      if (created) return { accountId: accountId!, created };
      return replaced ? { accountId: accountId!, replaced } : { accountId: accountId! };
    },
  );
  return { link: (claim, plan, note) => link.immediate(claim, plan, note) };
}
