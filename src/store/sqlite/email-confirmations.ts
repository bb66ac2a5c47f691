import type { Database } from "bun:sqlite";
import type { AuditNote, EmailConfirmationRow, EmailConfirmationsTable } from "../types.ts";

/** The `email_confirmations` table: links sent to confirm an address. */
export function sqliteEmailConfirmations(db: Database, audit: (note: AuditNote) => void): EmailConfirmationsTable {
  const insertOne = db.prepare(
    "INSERT INTO email_confirmations (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
  );
  // Older links die but stay counted: sentSince still sees them (the mails-per-hour limit).
  const killOlder = db.prepare(
    "UPDATE email_confirmations SET expires_at = created_at WHERE account_id = ? AND expires_at > created_at",
  );
  const insert = db.transaction((r: EmailConfirmationRow) => {
    killOlder.run(r.accountId);
    insertOne.run(r.tokenHash, r.accountId, r.createdAt, r.expiresAt);
  });
  const sentSince = db.prepare<{ createdAt: string }, [string, string]>(
    "SELECT created_at AS createdAt FROM email_confirmations WHERE account_id = ? AND created_at >= ? ORDER BY created_at DESC",
  );
  const live = db.prepare<{ accountId: string }, [string, string]>(
    "SELECT account_id AS accountId FROM email_confirmations WHERE token_hash = ? AND expires_at > ?",
  );
  const prove = db.prepare("UPDATE accounts SET email_status = 'proven', password_hash = ? WHERE id = ?");
  const drop = db.prepare("DELETE FROM email_confirmations WHERE account_id = ?");
  const emailOf = db.prepare<{ email: string }, [string]>("SELECT email FROM accounts WHERE id = ?");
  const take = db.transaction(
    (tokenHash: string, now: string, passwordHash: string, note?: AuditNote): string | null => {
      const found = live.get(tokenHash, now);
      if (!found) return null;
      prove.run(passwordHash, found.accountId);
      drop.run(found.accountId);
      // The link names its account only here: it is the entry's actor.
      if (note) audit({ ...note, actorId: found.accountId, actor: emailOf.get(found.accountId)?.email ?? null });
      return found.accountId;
    },
  );
  return {
    insert: (r: EmailConfirmationRow) => insert.immediate(r),
    sentSince: (accountId, since) => sentSince.all(accountId, since).map((r) => r.createdAt),
    live: (tokenHash, now) => live.get(tokenHash, now)?.accountId ?? null,
    take: (tokenHash, now, passwordHash, note) => take.immediate(tokenHash, now, passwordHash, note),
  };
}
