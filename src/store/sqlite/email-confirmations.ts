import type { Database } from "bun:sqlite";
import type { EmailConfirmationRow, EmailConfirmationsTable } from "../types.ts";

/** The `email_confirmations` table: links sent to confirm an address. */
export function sqliteEmailConfirmations(db: Database): EmailConfirmationsTable {
  const insert = db.prepare(
    "INSERT INTO email_confirmations (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
  );
  const sentSince = db.prepare<{ createdAt: string }, [string, string]>(
    "SELECT created_at AS createdAt FROM email_confirmations WHERE account_id = ? AND created_at >= ? ORDER BY created_at DESC",
  );
  const live = db.prepare<{ accountId: string }, [string, string]>(
    "SELECT account_id AS accountId FROM email_confirmations WHERE token_hash = ? AND expires_at > ?",
  );
  const prove = db.prepare("UPDATE accounts SET email_status = 'proven' WHERE id = ?");
  const drop = db.prepare("DELETE FROM email_confirmations WHERE account_id = ?");
  const take = db.transaction((tokenHash: string, now: string): string | null => {
    const found = live.get(tokenHash, now);
    if (!found) return null;
    prove.run(found.accountId);
    drop.run(found.accountId);
    return found.accountId;
  });
  return {
    insert: (r: EmailConfirmationRow) => {
      insert.run(r.tokenHash, r.accountId, r.createdAt, r.expiresAt);
    },
    sentSince: (accountId, since) => sentSince.all(accountId, since).map((r) => r.createdAt),
    take: (tokenHash, now) => take.immediate(tokenHash, now),
  };
}
