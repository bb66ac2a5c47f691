import type { SQL } from "bun";
import type { EmailConfirmationsTable } from "../types.ts";
import { writeAudit } from "./audit-events.ts";

/** The `email_confirmations` table: links sent to confirm an address. */
export function pgEmailConfirmations(sql: SQL): EmailConfirmationsTable {
  return {
    async insert(r) {
      // Older links die but stay counted: sentSince still sees them (the mails-per-hour limit).
      // One statement: the data-modifying CTE and the insert commit together.
      await sql`WITH dead AS (UPDATE email_confirmations SET expires_at = created_at
          WHERE account_id = ${r.accountId} AND expires_at > created_at)
        INSERT INTO email_confirmations (token_hash, account_id, created_at, expires_at)
        VALUES (${r.tokenHash}, ${r.accountId}, ${r.createdAt}, ${r.expiresAt})`;
    },
    async sentSince(accountId, since) {
      const rows = await sql`SELECT created_at FROM email_confirmations
        WHERE account_id = ${accountId} AND created_at >= ${since} ORDER BY created_at DESC`;
      return rows.map((r: { created_at: string }) => r.created_at);
    },
    async live(tokenHash, now) {
      const [r] =
        await sql`SELECT account_id FROM email_confirmations WHERE token_hash = ${tokenHash} AND expires_at > ${now}`;
      return (r?.account_id as string | undefined) ?? null;
    },
    take: (tokenHash, now, passwordHash, note) =>
      sql.begin(async (tx) => {
        // DELETE … RETURNING: of two clicks at once, one gets the row.
        const [found] = await tx`DELETE FROM email_confirmations
          WHERE token_hash = ${tokenHash} AND expires_at > ${now} RETURNING account_id`;
        if (!found) return null;
        const accountId = found.account_id as string;
        await tx`UPDATE accounts SET email_status = 'proven', password_hash = ${passwordHash} WHERE id = ${accountId}`;
        await tx`DELETE FROM email_confirmations WHERE account_id = ${accountId}`;
        // The link names its account only here: it is the entry's actor.
        const [who] = await tx`SELECT email FROM accounts WHERE id = ${accountId}`;
        if (note) await writeAudit(tx, { ...note, actorId: accountId, actor: (who?.email as string) ?? null });
        return accountId;
      }),
  };
}
