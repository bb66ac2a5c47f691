import type { Database } from "bun:sqlite";
import { migrations } from "./migrations.ts";

/** Applies the embedded migrations (db/*.sql, drizzle-kit's output) not applied yet. */
export function migrate(db: Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS __migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const done = new Set(
    db
      .query<{ tag: string }, []>("SELECT tag FROM __migrations")
      .all()
      .map((r) => r.tag),
  );
  for (const m of migrations) {
    if (done.has(m.tag)) continue;
    // IMMEDIATE: two processes starting on one file must not both apply a migration.
    db.transaction(() => {
      if (db.query("SELECT 1 FROM __migrations WHERE tag = ?").get(m.tag)) return; // another process won
      for (const stmt of m.sql.split("--> statement-breakpoint")) {
        if (stmt.trim()) db.exec(stmt);
      }
      db.query("INSERT INTO __migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, new Date().toISOString());
    }).immediate();
  }
}
