import type { Database } from "bun:sqlite";
import type { AccountRow, AccountsTable, AuditNote, Plan } from "../types.ts";
import { sqliteAccountRemoval } from "./account-removal.ts";

const COLUMNS = "id, email, password_hash AS passwordHash, plan, created_at AS createdAt, email_status AS emailStatus";

/** The `accounts` table. Synchronous, so identities.ts uses it inside its own transaction. */
export function sqliteAccounts(db: Database, audit: (note: AuditNote) => void) {
  const byId = db.prepare<AccountRow, [string]>(`SELECT ${COLUMNS} FROM accounts WHERE id = ?`);
  const byEmail = db.prepare<AccountRow, [string]>(`SELECT ${COLUMNS} FROM accounts WHERE email = ?`);
  const insert = db.prepare(
    "INSERT INTO accounts (id, email, password_hash, plan, created_at, email_status) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING",
  );
  const list = db.prepare<AccountRow, []>(`SELECT ${COLUMNS} FROM accounts ORDER BY created_at, email`);
  const setPlan = db.prepare<AccountRow, [Plan, string]>(
    `UPDATE accounts SET plan = ? WHERE email = ? RETURNING ${COLUMNS}`,
  );
  const setProven = db.prepare<AccountRow, [string]>(
    `UPDATE accounts SET email_status = 'proven' WHERE email = ? RETURNING ${COLUMNS}`,
  );
  const retakePending = db.prepare<AccountRow, [string, string]>(
    `UPDATE accounts SET password_hash = ? WHERE email = ? AND email_status = 'pending' RETURNING ${COLUMNS}`,
  );
  const removePending = db.prepare(
    "DELETE FROM accounts WHERE email = ? AND email_status = 'pending' AND created_at < ?",
  );
  // The takeover of an unproven address (IdentitiesTable.link): every credential the account had goes.
  const revoke = [
    "UPDATE accounts SET password_hash = NULL, email_status = 'proven' WHERE id = $id",
    "DELETE FROM sessions WHERE account_id = $id",
    "DELETE FROM identities WHERE account_id = $id",
    "DELETE FROM email_confirmations WHERE account_id = $id",
  ].map((q) => db.prepare<unknown, { id: string }>(q));
  const revokeKeys = db.prepare<unknown, { id: string; now: string }>(
    "UPDATE api_keys SET status = 'revoked', revoked_at = $now WHERE account_id = $id AND status = 'active'",
  );
  const inserted = db.transaction((r: AccountRow, note?: AuditNote) => {
    const ok = insert.run(r.id, r.email, r.passwordHash, r.plan, r.createdAt, r.emailStatus).changes === 1;
    if (ok && note) audit(note);
    return ok;
  });
  return {
    byId: (id: string) => byId.get(id),
    byEmail: (email: string) => byEmail.get(email),
    insert: (r: AccountRow, note?: AuditNote) => inserted(r, note),
    remove: sqliteAccountRemoval(db, audit),
    list: () => list.all(),
    setPlan: (email: string, plan: Plan) => setPlan.get(plan, email),
    setProven: (email: string) => setProven.get(email),
    removePending: (email: string, before: string) => removePending.run(email, before).changes === 1,
    retakePending: (email: string, passwordHash: string) => retakePending.get(passwordHash, email),
    /** Call inside a transaction (identities.ts). */
    revokeCredentials: (id: string, now: string) => {
      for (const s of revoke) s.run({ id });
      revokeKeys.run({ id, now });
    },
  } satisfies AccountsTable & Record<string, unknown>;
}
