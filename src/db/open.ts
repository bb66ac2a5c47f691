import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import * as schema from "./schema.ts";
import { migrations } from "./migrations.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

/**
 * Opens (creating its directory) and migrates the SQLite database. WAL and a busy
 * timeout on every connection, so concurrent writers wait instead of failing.
 */
export function openDatabase(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL;");
  sqlite.exec("PRAGMA busy_timeout = 5000;");
  sqlite.exec("PRAGMA foreign_keys = ON;");
  sqlite.exec("PRAGMA synchronous = NORMAL;");
  migrate(sqlite);
  return drizzle(sqlite, { schema }) as Db;
}

function migrate(sqlite: Database): void {
  sqlite.exec("CREATE TABLE IF NOT EXISTS __migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const done = new Set(sqlite.query<{ tag: string }, []>("SELECT tag FROM __migrations").all().map((r) => r.tag));
  for (const m of migrations) {
    if (done.has(m.tag)) continue;
    // IMMEDIATE: two processes starting on one file must not both apply a migration.
    sqlite.transaction(() => {
      for (const stmt of m.sql.split("--> statement-breakpoint")) {
        if (stmt.trim()) sqlite.exec(stmt);
      }
      sqlite.query("INSERT INTO __migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, new Date().toISOString());
    }).immediate();
  }
}
