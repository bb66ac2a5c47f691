import { Database } from "bun:sqlite";
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { AppError } from "../../contract/errors.ts";
import { syncFile, syncFolder } from "./file-sync.ts";
import { schemaOf } from "./schema-version.ts";

/** What `db backup` wrote. */
export interface BackupReport {
  file: string;
  bytes: number;
  /** The newest migration inside the copy. */
  schema: string;
}

/**
 * A consistent copy of the database at `dbPath` while servers write to it: `VACUUM INTO` reads one
 * snapshot (WAL readers never block the writers) into a new file, the migrations table with it.
 * Written under a temporary name beside `file`, fsynced, then renamed: a crash leaves either the
 * old `file` or the whole new one, never half a backup under the name.
 */
export function backupSqlite(dbPath: string, file: string, o: { overwrite?: boolean } = {}): BackupReport {
  if (!existsSync(dbPath))
    throw new AppError(
      "config_invalid",
      `invalid DATABASE_PATH=${JSON.stringify(dbPath)}: no SQLite database there to back up`,
      500,
    );
  const target = resolve(file);
  if (target === resolve(dbPath))
    throw new AppError("invalid_request", `${file} is the database itself: back up to another file`);
  if (existsSync(target) && !o.overwrite)
    throw new AppError("invalid_request", `${file} exists: choose a new name, or add --overwrite to replace it`);
  const temp = `${target}.partial-${process.pid}`;
  rmSync(temp, { force: true });
  const db = new Database(dbPath, { readonly: true });
  try {
    // A server's writes may hold the file a moment; wait as the server's own connections do.
    db.exec("PRAGMA busy_timeout = 5000;");
    const schema = schemaOf(db);
    if (!schema)
      throw new AppError("invalid_request", `${dbPath} is not a research-query database (no migrations table)`);
    db.query("VACUUM INTO ?").run(temp);
    syncFile(temp);
    renameSync(temp, target);
    syncFolder(target);
    return { file: target, bytes: statSync(target).size, schema: schema.newest };
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  } finally {
    db.close();
  }
}
