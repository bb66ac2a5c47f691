import type { SQL } from "bun";
import type { AttemptEntry, LoginAttemptsTable } from "../types.ts";

/**
 * The `login_attempts` table: sign-in counters shared by every instance. The rules stay in
 * src/auth/attempts.ts; this only gives them the keys' entries under lock and writes back.
 */
export function pgLoginAttempts(sql: SQL): LoginAttemptsTable {
  let lastSweep = 0;
  return {
    update: (keys, decide, forgetBefore) =>
      sql.begin(async (tx) => {
        // Locks in key order, so two attempts naming the same keys cannot deadlock; a lock on a
        // key without a row yet works as well as a row lock.
        for (const k of [...new Set(keys)].sort()) await tx`SELECT pg_advisory_xact_lock(hashtext(${`login:${k}`}))`;
        const rows =
          await tx`SELECT key, failures, pending, blocked_until::float8 AS "blockedUntil", last_at::float8 AS "lastAt"
          FROM login_attempts WHERE key = ANY(${keys}::text[])`;
        const current = new Map<string, AttemptEntry>(
          rows.map((r: AttemptEntry & { key: string }) => [
            r.key,
            { failures: r.failures, pending: r.pending, blockedUntil: r.blockedUntil, lastAt: r.lastAt },
          ]),
        );
        const { result, write } = decide(current);
        for (const [k, e] of write) {
          if (!e) await tx`DELETE FROM login_attempts WHERE key = ${k}`;
          else
            await tx`INSERT INTO login_attempts (key, failures, pending, blocked_until, last_at)
              VALUES (${k}, ${e.failures}, ${e.pending}, ${e.blockedUntil}, ${e.lastAt})
              ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, pending = excluded.pending,
                blocked_until = excluded.blocked_until, last_at = excluded.last_at`;
        }
        // Idle keys go at most once a minute per instance: the table holds about an hour of them.
        if (forgetBefore - lastSweep > 60_000) {
          lastSweep = forgetBefore;
          await tx`DELETE FROM login_attempts WHERE last_at < ${forgetBefore}`;
        }
        return result;
      }),
  };
}
