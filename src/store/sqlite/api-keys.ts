import type { Database } from "bun:sqlite";
import type { ApiKeysTable, AuditNote, KeyCheck, KeyRow } from "../types.ts";

const COLUMNS = `id, account_id AS accountId, name, prefix, key_hash AS keyHash, status,
  created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt`;

/** The `api_keys` table. */
export function sqliteApiKeys(db: Database, audit: (note: AuditNote) => void): ApiKeysTable {
  const insert =
    db.prepare(`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, status, created_at, last_used_at, revoked_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // One statement: SQLite's single writer makes the count, the session's check and the insert
  // one step, so neither a concurrent creation nor a takeover's transaction can come between.
  const insertWithin = db.prepare(
    `INSERT INTO api_keys (id, account_id, name, prefix, key_hash, status, created_at, last_used_at, revoked_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
     WHERE (SELECT count(*) FROM api_keys WHERE account_id = ?2 AND status = 'active') < ?10
       AND (?11 IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE token_hash = ?11 AND account_id = ?2 AND expires_at > ?12))`,
  );
  const liveSession = db.prepare("SELECT 1 FROM sessions WHERE token_hash = ? AND account_id = ? AND expires_at > ?");
  const list = db.prepare<KeyRow, [string]>(
    `SELECT ${COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY created_at DESC, rowid DESC`,
  );
  // The cursor is a key: its (created_at, rowid) place in the order, so keys made or revoked
  // between two pages shift nothing.
  const page = db.prepare<KeyRow, [string, string | null, number]>(
    `SELECT ${COLUMNS} FROM api_keys WHERE account_id = ?1
       AND (?2 IS NULL OR (created_at, rowid) <= (SELECT created_at, rowid FROM api_keys WHERE id = ?2 AND account_id = ?1))
     ORDER BY created_at DESC, rowid DESC LIMIT ?3`,
  );
  const revoke = db.prepare(
    "UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE id = ? AND account_id = ? AND status = 'active'",
  );
  const accountOf = db.prepare<{ accountId: string }, [string]>(
    "SELECT account_id AS accountId FROM api_keys WHERE id = ?",
  );
  const owned = db.prepare<KeyRow, [string, string]>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ? AND account_id = ?`);
  // Every call and every refusal runs this: only the columns the check needs.
  const byHash = db.prepare<KeyCheck, [string]>(
    "SELECT id, account_id AS accountId, prefix, status, last_used_at AS lastUsedAt FROM api_keys WHERE key_hash = ?",
  );
  const touch = db.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
  const inserted = db.transaction((row: unknown[], note?: AuditNote) => {
    const ok = insertWithin.run(...(row as string[])).changes > 0;
    if (ok && note) audit(note);
    return ok;
  });
  const revoked = db.transaction((accountId: string, keyId: string, at: string, note?: AuditNote) => {
    if (revoke.run(at, keyId, accountId).changes > 0 && note) audit(note);
    return owned.get(keyId, accountId);
  });
  return {
    insert(r) {
      insert.run(r.id, r.accountId, r.name, r.prefix, r.keyHash, r.status, r.createdAt, r.lastUsedAt, r.revokedAt);
    },
    insertWithin(r, max, whileSession, note) {
      const row = [r.id, r.accountId, r.name, r.prefix, r.keyHash, r.status, r.createdAt, r.lastUsedAt, r.revokedAt];
      const ok = inserted([...row, max, whileSession?.tokenHash ?? null, whileSession?.now ?? null], note);
      if (ok) return "inserted";
      // Synchronous: nothing can commit between the refused insert and this read.
      return whileSession && !liveSession.get(whileSession.tokenHash, r.accountId, whileSession.now)
        ? "no_session"
        : "limit";
    },
    listByAccount: (accountId) => list.all(accountId),
    pageByAccount: (accountId, from, limit) => page.all(accountId, from, limit),
    revoke: (accountId, keyId, at, note) => revoked(accountId, keyId, at, note),
    accountOf: (keyId) => accountOf.get(keyId)?.accountId ?? null,
    byHash: (hash) => byHash.get(hash),
    touch(keyId, at) {
      touch.run(at, keyId);
    },
  };
}
