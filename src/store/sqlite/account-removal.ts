import type { Database } from "bun:sqlite";
import type { AccountsTable, AuditNote } from "../types.ts";

/**
 * AccountsTable.remove on SQLite: one IMMEDIATE transaction (README "When a person leaves").
 * The account's row goes last; its foreign keys cascade to every table keyed by it (sessions,
 * keys, identities, links, runs and their events and idempotency keys, counters, collections
 * and their documents, passages and uploads).
 */
export function sqliteAccountRemoval(db: Database, audit: (note: AuditNote) => void): AccountsTable["remove"] {
  const exists = db.prepare<{ one: number }, [string]>("SELECT 1 AS one FROM accounts WHERE id = ?");
  const spools = db.prepare<{ spool: string }, [string]>(
    `SELECT u.spool FROM corpus_uploads u JOIN corpus_collections c ON c.id = u.collection_id
     WHERE c.owner_id = ? AND c.visibility = 'private' AND u.spool IS NOT NULL`,
  );
  // The team keeps what was shared with it: the operator's now, renamed where the operator has that name.
  const handOver = db.prepare(
    `UPDATE corpus_collections SET owner_id = NULL,
       name = CASE WHEN EXISTS (SELECT 1 FROM corpus_collections o WHERE o.owner_id IS NULL AND o.name = corpus_collections.name)
         THEN substr(name, 1, 50) || '-' || id ELSE name END
     WHERE owner_id = ? AND visibility = 'shared'`,
  );
  const pseudonymise = db.prepare(
    `UPDATE audit_events SET
       actor_id = CASE WHEN actor_id = $id THEN $p ELSE actor_id END,
       target_id = CASE WHEN target_id = $id THEN $p ELSE target_id END,
       actor = CASE WHEN actor_id = $id OR actor = $email THEN $p ELSE actor END,
       target = CASE WHEN target_id = $id OR target = $email THEN $p ELSE target END
     WHERE actor_id = $id OR target_id = $id OR actor = $email OR target = $email`,
  );
  const drop = db.prepare("DELETE FROM accounts WHERE id = ?");
  const remove = db.transaction(
    (id: string, erase: { email: string; pseudonym: string }, note: AuditNote): string[] | null => {
      if (!exists.get(id)) return null;
      const files = spools.all(id).map((r) => r.spool);
      handOver.run(id);
      pseudonymise.run({ id, email: erase.email, p: erase.pseudonym });
      drop.run(id);
      audit(note);
      return files;
    },
  );
  return (id, erase, note) => remove.immediate(id, erase, note);
}
