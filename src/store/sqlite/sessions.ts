import type { Database } from "bun:sqlite";
import type { SessionsTable } from "../types.ts";

/** The `sessions` table: only token hashes are stored. */
export function sqliteSessions(db: Database): SessionsTable {
  const insert = db.prepare(
    "INSERT INTO sessions (id, account_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
  );
  const sweep = db.prepare("DELETE FROM sessions WHERE expires_at < ?");
  const byHash = db.prepare<{ accountId: string }, [string, string]>(
    "SELECT account_id AS accountId FROM sessions WHERE token_hash = ? AND expires_at > ?",
  );
  const del = db.prepare("DELETE FROM sessions WHERE token_hash = ?");
  return {
    insert(r) {
      insert.run(r.id, r.accountId, r.tokenHash, r.createdAt, r.expiresAt);
      // Expired rows are swept opportunistically; they are refused regardless.
      sweep.run(r.createdAt);
    },
    accountIdByHash: (hash, now) => byHash.get(hash, now)?.accountId ?? null,
    deleteByHash(hash) {
      del.run(hash);
    },
  };
}
