import type { Database } from "bun:sqlite";
import type { AccountRow, AccountsTable, Plan } from "../types.ts";

const COLUMNS = "id, email, password_hash AS passwordHash, plan, created_at AS createdAt";

/** The `accounts` table. Synchronous, so identities.ts uses it inside its own transaction. */
export function sqliteAccounts(db: Database) {
  const byId = db.prepare<AccountRow, [string]>(`SELECT ${COLUMNS} FROM accounts WHERE id = ?`);
  const byEmail = db.prepare<AccountRow, [string]>(`SELECT ${COLUMNS} FROM accounts WHERE email = ?`);
  const insert = db.prepare(
    "INSERT INTO accounts (id, email, password_hash, plan, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING",
  );
  const setPlan = db.prepare<AccountRow, [Plan, string]>(
    `UPDATE accounts SET plan = ? WHERE email = ? RETURNING ${COLUMNS}`,
  );
  return {
    byId: (id: string) => byId.get(id),
    byEmail: (email: string) => byEmail.get(email),
    insert: (r: AccountRow) => insert.run(r.id, r.email, r.passwordHash, r.plan, r.createdAt).changes === 1,
    setPlan: (email: string, plan: Plan) => setPlan.get(plan, email),
  } satisfies AccountsTable;
}
