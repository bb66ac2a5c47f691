import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { backupSqlite } from "../store/sqlite/backup.ts";
import { restoreSqlite } from "../store/sqlite/restore.ts";
import { type CommandInput, EXIT } from "./command.ts";

/** How PostgreSQL is backed up: its own tools, or a SQLite file db restore can put back; both read one snapshot of a live database. */
const POSTGRES_BACKUP =
  'back up PostgreSQL while the instances run with pg_dump -Fc -f FILE "$DATABASE_URL" (restored with pg_restore), or into a SQLite file with db copy --to FILE (restored with db restore)';

/** `db backup` and `db restore` are SQLite's: with DATABASE_URL set they say what to do instead. */
function sqliteOnly(cfg: Config, what: string): string {
  if (cfg.DATABASE_URL)
    throw new AppError(
      "invalid_request",
      `db ${what} works on SQLite (DATABASE_PATH); DATABASE_URL is set: ${POSTGRES_BACKUP}`,
    );
  if (cfg.DATABASE_PATH === ":memory:")
    throw new AppError(
      "config_invalid",
      'invalid DATABASE_PATH=":memory:": an in-memory database has no file to back up or restore',
      500,
    );
  return cfg.DATABASE_PATH;
}

/** `db backup FILE [--overwrite]`: a consistent copy while the server runs (docs/decisions/0184-backups-by-vacuum-into.md). */
export async function dbBackup({ cfg, options, args }: CommandInput): Promise<number> {
  const r = backupSqlite(sqliteOnly(cfg, "backup"), args[0]!, { overwrite: options.overwrite === true });
  process.stderr.write(
    `backed up ${cfg.DATABASE_PATH} to ${r.file} (${r.bytes.toLocaleString("en")} bytes, schema ${r.schema})\n`,
  );
  return EXIT.ok;
}

/** `db restore FILE`: only with no process on the database (docs/decisions/0185-restore-only-onto-a-closed-database.md). */
export async function dbRestore({ cfg, args }: CommandInput): Promise<number> {
  const path = sqliteOnly(cfg, "restore");
  const r = restoreSqlite(path, args[0]!);
  const kept = r.replaced ? `; the database it replaced is ${r.replaced}` : "";
  process.stderr.write(`restored ${args[0]} to ${path} (schema ${r.schema})${kept}; start the server\n`);
  return EXIT.ok;
}
