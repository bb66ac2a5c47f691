import type { SQL } from "bun";
import type { SettingsTable } from "../types.ts";

/** The `settings` table: server-wide values such as the generated session secret. */
export function pgSettings(sql: SQL): SettingsTable {
  const read = async (key: string) =>
    ((await sql`SELECT value FROM settings WHERE key = ${key}`)[0]?.value as string | undefined) ?? null;
  return {
    async getOrCreate(key, make) {
      const found = await read(key);
      if (found !== null) return found;
      // Instances starting together: a second insert waits on the first's uncommitted row,
      // then does nothing; the read after it (a new statement, a new snapshot) sees the winner.
      await sql`INSERT INTO settings (key, value) VALUES (${key}, ${make()}) ON CONFLICT (key) DO NOTHING`;
      return (await read(key))!;
    },
  };
}
