import type { SQL } from "bun";
import type { SessionsTable } from "../types.ts";

/** The `sessions` table: only token hashes are stored. */
export function pgSessions(sql: SQL): SessionsTable {
  return {
    async insert(r) {
      await sql`INSERT INTO sessions (id, account_id, token_hash, created_at, expires_at)
        VALUES (${r.id}, ${r.accountId}, ${r.tokenHash}, ${r.createdAt}, ${r.expiresAt})`;
      // Expired rows are swept opportunistically; they are refused regardless.
      await sql`DELETE FROM sessions WHERE expires_at < ${r.createdAt}`;
    },
    async accountIdByHash(hash, now) {
      const [r] = await sql`SELECT account_id FROM sessions WHERE token_hash = ${hash} AND expires_at > ${now}`;
      return (r?.account_id as string | undefined) ?? null;
    },
    async deleteByHash(hash) {
      await sql`DELETE FROM sessions WHERE token_hash = ${hash}`;
    },
  };
}
