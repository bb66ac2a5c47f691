import type { Database } from "bun:sqlite";
import type { AccountRow, AccountsTable, Plan } from "../types.ts";

const COLUMNS = "id, email, password_hash AS passwordHash, plan, created_at AS createdAt";

/** The `accounts` table. `insertAccount` is shared with identities.ts (its transaction). */
export function insertAccount(db: Database, row: AccountRow): boolean {
  return (
    db
      .query(
        "INSERT INTO accounts (id, email, password_hash, plan, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING",
      )
      .run(row.id, row.email, row.passwordHash, row.plan, row.createdAt).changes === 1
  );
}

export function sqliteAccounts(db: Database): AccountsTable {
  const byId = db.prepare<AccountRow, [string]>(`SELECT ${COLUMNS} FROM accounts WHERE id = ?`);
  const byEmail = db.prepare<AccountRow, [string]>(`SELECT ${COLUMNS} FROM accounts WHERE email = ?`);
  const setPlan = db.prepare<AccountRow, [Plan, string]>(
    `UPDATE accounts SET plan = ? WHERE email = ? RETURNING ${COLUMNS}`,
  );
  return {
    byId: (id) => byId.get(id),
    byEmail: (email) => byEmail.get(email),
    insert: (row) => insertAccount(db, row),
    setPlan: (email, plan) => setPlan.get(plan, email),
  };
}
