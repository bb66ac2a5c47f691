import type { SQL } from "bun";
import type { SessionsTable } from "../types.ts";
import { lockAccount } from "./account-lock.ts";
import { writeAudit } from "./audit-events.ts";

/** The `sessions` table: only token hashes are stored. */
export function pgSessions(sql: SQL): SessionsTable {
  return {
    async insert(r, proof, note) {
      const made = await sql.begin(async (tx) => {
        await lockAccount(tx, r.accountId);
        // Statements after the lock: their snapshot sees a takeover that committed while we waited.
        const inserted =
          "passwordHash" in proof
            ? await tx`INSERT INTO sessions (id, account_id, token_hash, created_at, expires_at)
              SELECT ${r.id}, ${r.accountId}, ${r.tokenHash}, ${r.createdAt}, ${r.expiresAt}
              WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ${r.accountId} AND password_hash = ${proof.passwordHash})`
            : await tx`INSERT INTO sessions (id, account_id, token_hash, created_at, expires_at)
              SELECT ${r.id}, ${r.accountId}, ${r.tokenHash}, ${r.createdAt}, ${r.expiresAt}
              WHERE EXISTS (SELECT 1 FROM identities
                WHERE account_id = ${r.accountId} AND issuer = ${proof.issuer} AND subject = ${proof.subject})`;
        if (inserted.count === 1 && note) await writeAudit(tx, note);
        return inserted.count === 1;
      });
      // Expired rows are swept opportunistically; they are refused regardless.
      await sql`DELETE FROM sessions WHERE expires_at < ${r.createdAt}`;
      return made;
    },
    async accountIdByHash(hash, now) {
      const [r] = await sql`SELECT account_id FROM sessions WHERE token_hash = ${hash} AND expires_at > ${now}`;
      return (r?.account_id as string | undefined) ?? null;
    },
    async createdAt(hash, now) {
      const [r] = await sql`SELECT created_at FROM sessions WHERE token_hash = ${hash} AND expires_at > ${now}`;
      return (r?.created_at as string | undefined) ?? null;
    },
    async deleteByHash(hash, note) {
      await sql.begin(async (tx) => {
        const ended = await tx`DELETE FROM sessions WHERE token_hash = ${hash}`;
        if (ended.count > 0 && note) await writeAudit(tx, note);
      });
    },
  };
}
