import type { SQL } from "bun";
import type { AccountRow, AccountsTable, AuditNote, Plan } from "../types.ts";
import { pgAccountRemoval } from "./account-removal.ts";
import { writeAudit } from "./audit-events.ts";

/** The first row or null; the queries alias columns to AccountRow's names, so rows need no mapping. */
const row = (rows: AccountRow[]): AccountRow | null => rows[0] ?? null;

/**
 * The `accounts` table. Each function takes the connection to use, so identities.ts can run
 * them inside its own transaction.
 */
export function pgAccounts(sql: SQL) {
  const on = (db: SQL) => ({
    byId: async (id: string) =>
      row(
        await db`SELECT id, email, password_hash AS "passwordHash", plan, created_at AS "createdAt", email_status AS "emailStatus"
        FROM accounts WHERE id = ${id}`,
      ),
    byEmail: async (email: string) =>
      row(
        await db`SELECT id, email, password_hash AS "passwordHash", plan, created_at AS "createdAt", email_status AS "emailStatus"
        FROM accounts WHERE email = ${email}`,
      ),
    // The unique email decides a race between two sign-ups of one address: one row, one `true`.
    insert: async (r: AccountRow) =>
      (
        await db`INSERT INTO accounts (id, email, password_hash, plan, created_at, email_status)
          VALUES (${r.id}, ${r.email}, ${r.passwordHash}, ${r.plan}, ${r.createdAt}, ${r.emailStatus})
          ON CONFLICT (email) DO NOTHING`
      ).count === 1,
    list: async (): Promise<AccountRow[]> =>
      await db`SELECT id, email, password_hash AS "passwordHash", plan, created_at AS "createdAt", email_status AS "emailStatus"
        FROM accounts ORDER BY created_at, email`,
    setPlan: async (email: string, plan: Plan) =>
      row(
        await db`UPDATE accounts SET plan = ${plan} WHERE email = ${email}
        RETURNING id, email, password_hash AS "passwordHash", plan, created_at AS "createdAt", email_status AS "emailStatus"`,
      ),
    setProven: async (email: string) =>
      row(
        await db`UPDATE accounts SET email_status = 'proven' WHERE email = ${email}
        RETURNING id, email, password_hash AS "passwordHash", plan, created_at AS "createdAt", email_status AS "emailStatus"`,
      ),
    removePending: async (email: string, before: string) =>
      (await db`DELETE FROM accounts WHERE email = ${email} AND email_status = 'pending' AND created_at < ${before}`)
        .count === 1,
    retakePending: async (email: string, passwordHash: string) =>
      row(
        await db`UPDATE accounts SET password_hash = ${passwordHash} WHERE email = ${email} AND email_status = 'pending'
        RETURNING id, email, password_hash AS "passwordHash", plan, created_at AS "createdAt", email_status AS "emailStatus"`,
      ),
    /** The takeover of an unproven address (IdentitiesTable.link): call inside a transaction. */
    revokeCredentials: async (id: string, now: string) => {
      await db`UPDATE accounts SET password_hash = NULL, email_status = 'proven' WHERE id = ${id}`;
      await db`DELETE FROM sessions WHERE account_id = ${id}`;
      await db`UPDATE api_keys SET status = 'revoked', revoked_at = ${now} WHERE account_id = ${id} AND status = 'active'`;
      await db`DELETE FROM identities WHERE account_id = ${id}`;
      await db`DELETE FROM email_confirmations WHERE account_id = ${id}`;
    },
  });
  // With an audit entry, the insert and the entry in one transaction.
  const insert = (r: AccountRow, note?: AuditNote) =>
    note
      ? sql.begin(async (tx) => {
          const ok = await on(tx).insert(r);
          if (ok) await writeAudit(tx, note);
          return ok;
        })
      : on(sql).insert(r);
  return { ...(on(sql) satisfies Omit<AccountsTable, "remove">), insert, remove: pgAccountRemoval(sql), on };
}
