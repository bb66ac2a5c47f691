import type { SQL } from "bun";
import type { AccountsTable } from "../types.ts";
import { lockAccount } from "./account-lock.ts";
import { writeAudit } from "./audit-events.ts";

/**
 * AccountsTable.remove on PostgreSQL, as on SQLite (src/store/sqlite/account-removal.ts), in one
 * transaction holding the account's row: its foreign keys cascade to every table keyed by it.
 * Sign-in counters are keyed by the address typed (`e:EMAIL`): they go by hand.
 */
export function pgAccountRemoval(sql: SQL): AccountsTable["remove"] {
  return (id, erase, note) =>
    sql.begin(async (tx) => {
      await lockAccount(tx, id);
      if (!(await tx`SELECT 1 FROM accounts WHERE id = ${id}`).length) return null;
      const files = await tx`SELECT u.spool FROM corpus_uploads u JOIN corpus_collections c ON c.id = u.collection_id
        WHERE c.owner_id = ${id} AND c.visibility = 'private' AND u.spool IS NOT NULL`;
      await tx`UPDATE corpus_collections SET owner_id = NULL, version = version + 1,
          name = CASE WHEN EXISTS (SELECT 1 FROM corpus_collections o WHERE o.owner_id IS NULL AND o.name = corpus_collections.name)
            THEN substr(name, 1, 50) || '-' || id ELSE name END
        WHERE owner_id = ${id} AND visibility = 'shared'`;
      const { email, pseudonym: p } = erase;
      await tx`UPDATE audit_events SET
          actor_id = CASE WHEN actor_id = ${id} THEN ${p} ELSE actor_id END,
          target_id = CASE WHEN target_id = ${id} THEN ${p} ELSE target_id END,
          actor = CASE WHEN actor_id = ${id} OR actor = ${email} THEN ${p} ELSE actor END,
          target = CASE WHEN target_id = ${id} OR target = ${email} THEN ${p} ELSE target END
        WHERE actor_id = ${id} OR target_id = ${id} OR actor = ${email} OR target = ${email}`;
      await tx`DELETE FROM login_attempts WHERE key = ${`e:${email}`}`;
      await tx`DELETE FROM accounts WHERE id = ${id}`;
      await writeAudit(tx, note);
      return files.map((r: { spool: string }) => r.spool);
    });
}
