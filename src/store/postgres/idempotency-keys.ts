import type { SQL } from "bun";
import type { IdempotencyClaim } from "../types.ts";

/**
 * The `idempotency_keys` table: which run an account's Idempotency-Key started, for 24
 * hours. Used only inside runs.accept's transaction, which first takes an advisory lock on
 * the (account, key) pair: retries landing on several instances at once queue there, and
 * each after the first finds the claim the first committed.
 */
export function pgIdempotencyKeys() {
  let lastSweep = 0;
  return {
    async lock(tx: SQL, accountId: string, c: IdempotencyClaim): Promise<void> {
      await tx`SELECT pg_advisory_xact_lock(hashtext(${`idempotency:${accountId} ${c.key}`}))`;
    },
    async find(tx: SQL, accountId: string, c: IdempotencyClaim): Promise<{ runId: string; queryHash: string } | null> {
      const [r] = await tx`SELECT run_id, query_hash FROM idempotency_keys
        WHERE account_id = ${accountId} AND key = ${c.key} AND created_at >= ${c.since.toISOString()}`;
      return r ? { runId: r.run_id as string, queryHash: r.query_hash as string } : null;
    },
    async claim(tx: SQL, accountId: string, c: IdempotencyClaim, runId: string, at: Date): Promise<void> {
      // An expired claim of the same key is replaced: after 24 hours the key is free again.
      await tx`INSERT INTO idempotency_keys (account_id, key, query_hash, run_id, created_at)
        VALUES (${accountId}, ${c.key}, ${c.queryHash}, ${runId}, ${at.toISOString()})
        ON CONFLICT (account_id, key) DO UPDATE SET query_hash = excluded.query_hash, run_id = excluded.run_id,
          created_at = excluded.created_at`;
      // Expired keys go at most once a minute per instance: the table holds about a day of keys.
      if (at.getTime() - lastSweep > 60_000) {
        lastSweep = at.getTime();
        await tx`DELETE FROM idempotency_keys WHERE created_at < ${c.since.toISOString()}`;
      }
    },
  };
}
