import type { Database } from "bun:sqlite";
import type { AuditNote, SessionProof, SessionRow, SessionsTable } from "../types.ts";

type Row = Record<"id" | "accountId" | "tokenHash" | "createdAt" | "expiresAt", string>;

/** The `sessions` table: only token hashes are stored. */
export function sqliteSessions(db: Database, audit: (note: AuditNote) => void): SessionsTable {
  // One statement each: the check and the write cannot be split by a takeover's transaction.
  const insertIf = (proof: string) =>
    db.prepare<unknown, Row & Record<string, string>>(
      `INSERT INTO sessions (id, account_id, token_hash, created_at, expires_at)
      SELECT $id, $accountId, $tokenHash, $createdAt, $expiresAt WHERE EXISTS (${proof})`,
    );
  const withPassword = insertIf("SELECT 1 FROM accounts WHERE id = $accountId AND password_hash = $passwordHash");
  const withIdentity = insertIf(
    "SELECT 1 FROM identities WHERE account_id = $accountId AND issuer = $issuer AND subject = $subject",
  );
  const sweep = db.prepare("DELETE FROM sessions WHERE expires_at < ?");
  const byHash = db.prepare<{ accountId: string }, [string, string]>(
    "SELECT account_id AS accountId FROM sessions WHERE token_hash = ? AND expires_at > ?",
  );
  const del = db.prepare("DELETE FROM sessions WHERE token_hash = ?");
  const madeAt = db.prepare<{ createdAt: string }, [string, string]>(
    "SELECT created_at AS createdAt FROM sessions WHERE token_hash = ? AND expires_at > ?",
  );
  const insert = db.transaction((r: SessionRow, proof: SessionProof, note?: AuditNote) => {
    const row = {
      id: r.id,
      accountId: r.accountId,
      tokenHash: r.tokenHash,
      createdAt: r.createdAt,
      expiresAt: r.expiresAt,
    };
    const made =
      "passwordHash" in proof
        ? withPassword.run({ ...row, passwordHash: proof.passwordHash })
        : withIdentity.run({ ...row, issuer: proof.issuer, subject: proof.subject });
    // Expired rows are swept opportunistically; they are refused regardless.
    sweep.run(r.createdAt);
    if (made.changes === 1 && note) audit(note);
    return made.changes === 1;
  });
  const end = db.transaction((hash: string, note?: AuditNote) => {
    if (del.run(hash).changes > 0 && note) audit(note);
  });
  return {
    insert: (r, proof, note) => insert(r, proof, note),
    accountIdByHash: (hash, now) => byHash.get(hash, now)?.accountId ?? null,
    createdAt: (hash, now) => madeAt.get(hash, now)?.createdAt ?? null,
    deleteByHash(hash, note) {
      end(hash, note);
    },
  };
}
