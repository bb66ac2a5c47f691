import type { SQL } from "bun";
import type { SignupBucketsTable } from "../types.ts";

/**
 * The `signup_buckets` table: sign-up token buckets shared by every instance. The rule stays
 * in src/auth/signup-limits.ts; this gives it the client's bucket under lock and keeps what
 * it returns.
 */
export function pgSignupBuckets(sql: SQL): SignupBucketsTable {
  let lastSweep = 0;
  return {
    update: (client, decide, forgetBefore) =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext(${`signup:${client}`}))`;
        const [row] = await tx`SELECT tokens, at::float8 AS at FROM signup_buckets WHERE client = ${client}`;
        const { result, write } = decide(row ? { tokens: row.tokens as number, at: row.at as number } : undefined);
        if (write)
          await tx`INSERT INTO signup_buckets (client, tokens, at) VALUES (${client}, ${write.tokens}, ${write.at})
            ON CONFLICT (client) DO UPDATE SET tokens = excluded.tokens, at = excluded.at`;
        // Full buckets go at most once a minute per instance: a missing bucket is a full one.
        if (forgetBefore - lastSweep > 60_000) {
          lastSweep = forgetBefore;
          await tx`DELETE FROM signup_buckets WHERE at < ${forgetBefore}`;
        }
        return result;
      }),
  };
}
