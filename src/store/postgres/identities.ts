import type { SQL } from "bun";
import type { AccountRow, IdentitiesTable, LinkOutcome } from "../types.ts";
import type { pgAccounts } from "./accounts.ts";
import { writeAudit } from "./audit-events.ts";

/** The `identities` table: accounts linked to an identity provider by (issuer, subject). */
export function pgIdentities(sql: SQL, accounts: ReturnType<typeof pgAccounts>): IdentitiesTable {
  return {
    link: (claim, plan, note) =>
      sql.begin(async (tx): Promise<LinkOutcome> => {
        // Two first sign-ins of one identity, on any instances, queue here: one account, one link.
        await tx`SELECT pg_advisory_xact_lock(hashtext(${`identity:${claim.issuer} ${claim.subject}`}))`;
        const [found] =
          await tx`SELECT account_id FROM identities WHERE issuer = ${claim.issuer} AND subject = ${claim.subject}`;
        if (found) return { accountId: found.account_id as string };
        if (!claim.email) return { refused: "no_email" };
        const now = new Date().toISOString();
        const a = accounts.on(tx);
        let existing = await a.byEmail(claim.email);
        if (!existing) {
          const emailStatus = claim.emailVerified ? "proven" : "unproven";
          const row: AccountRow = {
            id: crypto.randomUUID(),
            email: claim.email,
            passwordHash: null,
            plan,
            createdAt: now,
            emailStatus,
          };
          // A password sign-up of the same address may win the race: then that account is the one.
          if (await a.insert(row)) return linkTo(row.id, false, true);
          existing = (await a.byEmail(claim.email))!;
        }
        // Threat: someone claiming a victim's address at the IdP to take over their account.
        if (!claim.emailVerified) return { refused: "email_not_verified" };
        // Threat: someone who made an account with the victim's address before the victim came.
        const replaced = existing.emailStatus !== "proven";
        if (replaced) await a.revokeCredentials(existing.id, now);
        return linkTo(existing.id, replaced);

        async function linkTo(accountId: string, replaced: boolean, created = false): Promise<LinkOutcome> {
          await tx`INSERT INTO identities (id, account_id, issuer, subject, email, created_at)
            VALUES (${crypto.randomUUID()}, ${accountId}, ${claim.issuer}, ${claim.subject}, ${claim.email}, ${now})`;
          if (note && (created || replaced))
            await writeAudit(tx, {
              ...note,
              action: created ? "signup" : "account_taken_over",
              actorId: accountId,
              actor: claim.email ?? null,
            });
          if (created) return { accountId, created };
          return replaced ? { accountId, replaced } : { accountId };
        }
      }),
  };
}
