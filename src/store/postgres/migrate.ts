import type { SQL } from "bun";
import { pgMigrations } from "./migrations.ts";
import { cutLongTitles } from "./title-cuts.ts";

/**
 * Any fixed number: instances starting together queue on this transaction-level advisory
 * lock, so the first applies what is missing and the others find it applied. PostgreSQL's
 * DDL is transactional, so a failed migration leaves nothing half-applied.
 */
const MIGRATION_LOCK = 0x72715f6d; // "rq_m"

/**
 * Applies the embedded migrations (db/pg/*.sql, drizzle-kit's output) not applied yet.
 * `first` runs in the same transaction before anything is created: throwing there leaves the
 * database untouched (`db copy`'s check of its target).
 */
export async function migratePostgres(sql: SQL, first?: (tx: SQL) => Promise<void>): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await first?.(tx);
    await tx`CREATE TABLE IF NOT EXISTS __migrations (tag text PRIMARY KEY, applied_at text NOT NULL)`;
    const done = new Set((await tx`SELECT tag FROM __migrations`).map((r: { tag: string }) => r.tag));
    for (const m of pgMigrations) {
      if (done.has(m.tag)) continue;
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) await tx.unsafe(stmt);
      await tx`INSERT INTO __migrations (tag, applied_at) VALUES (${m.tag}, ${new Date().toISOString()})`;
    }
    await cutLongTitles(tx);
  });
}
