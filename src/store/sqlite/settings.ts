import type { Database } from "bun:sqlite";
import type { SettingsTable } from "../types.ts";

/** The `settings` table: server-wide values such as the generated session secret. */
export function sqliteSettings(db: Database): SettingsTable {
  const get = db.prepare<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?");
  const insert = db.prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING");
  return {
    getOrCreate(key, make) {
      const row = get.get(key);
      if (row) return row.value;
      // Two processes starting together: the first insert wins and both read it back.
      insert.run(key, make());
      return get.get(key)!.value;
    },
  };
}
