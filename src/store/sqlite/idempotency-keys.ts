import type { Database } from "bun:sqlite";
import type { IdempotencyClaim } from "../types.ts";

/**
 * The `idempotency_keys` table: which run an account's Idempotency-Key started, for 24
 * hours. Used only inside runs.accept's transaction, so a key is looked up and claimed
 * atomically with the run it names.
 */
export function sqliteIdempotencyKeys(db: Database) {
  const find = db.prepare<{ runId: string; queryHash: string }, [string, string, string]>(
    "SELECT run_id AS runId, query_hash AS queryHash FROM idempotency_keys WHERE account_id = ? AND key = ? AND created_at >= ?",
  );
  // An expired claim of the same key is replaced: after 24 hours the key is free again.
  const claim = db.prepare(
    `INSERT INTO idempotency_keys (account_id, key, query_hash, run_id, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account_id, key) DO UPDATE SET query_hash = excluded.query_hash, run_id = excluded.run_id,
     created_at = excluded.created_at`,
  );
  const sweep = db.prepare("DELETE FROM idempotency_keys WHERE created_at < ?");
  let lastSweep = 0;
  return {
    find(accountId: string, c: IdempotencyClaim): { runId: string; queryHash: string } | null {
      return find.get(accountId, c.key, c.since.toISOString());
    },
    claim(accountId: string, c: IdempotencyClaim, runId: string, at: Date): void {
      claim.run(accountId, c.key, c.queryHash, runId, at.toISOString());
      // Expired keys go at most once a minute: the table holds about a day of keys.
      if (at.getTime() - lastSweep > 60_000) {
        lastSweep = at.getTime();
        sweep.run(c.since.toISOString());
      }
    },
  };
}
