import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { AppError } from "../../contract/errors.ts";
import { syncFile, syncFolder } from "./file-sync.ts";
import { KNOWN_SCHEMA, schemaNumber, schemaOf } from "./schema-version.ts";

/** What `db restore` did. */
export interface RestoreReport {
  schema: string;
  /** Where the database it replaced now is (null: there was none). */
  replaced: string | null;
}

/**
 * Puts the backup `file` in place of the database at `dbPath`. The copy is checked before anything
 * is moved (integrity, a research-query schema this binary knows); the replaced database keeps its
 * name with `.replaced-<time>` added, its WAL folded in first so it is one self-contained file.
 * An older schema is migrated by the next start, as any database is.
 */
export function restoreSqlite(dbPath: string, file: string, now = new Date()): RestoreReport {
  if (!existsSync(file)) throw new AppError("invalid_request", `${file}: no such file`);
  const temp = `${dbPath}.restoring-${process.pid}`;
  rmSync(temp, { force: true });
  copyFileSync(file, temp);
  try {
    const schema = checkBackup(temp, file);
    syncFile(temp);
    const replaced = existsSync(dbPath) ? setAside(dbPath, now) : null;
    renameSync(temp, dbPath);
    syncFolder(dbPath);
    return { schema, replaced };
  } catch (e) {
    rmSync(temp, { force: true });
    rmSync(`${temp}-wal`, { force: true });
    rmSync(`${temp}-shm`, { force: true });
    throw e;
  }
}

/** The copy's integrity and schema; its newest migration. `file` is the name the operator gave. */
function checkBackup(path: string, file: string): string {
  let db: Database;
  try {
    db = new Database(path, { readwrite: true, create: false });
  } catch (e) {
    throw new AppError("invalid_request", `${file} is not a SQLite database: ${String(e)}`);
  }
  try {
    const schema = readSchema(db, file);
    const problems = db
      .query<{ integrity_check: string }, []>("PRAGMA integrity_check")
      .all()
      .map((r) => r.integrity_check);
    if (problems.join() !== "ok")
      throw new AppError("invalid_request", `${file} fails PRAGMA integrity_check: ${problems.slice(0, 3).join("; ")}`);
    return schema;
  } finally {
    db.close();
  }
}

function readSchema(db: Database, file: string): string {
  let schema: ReturnType<typeof schemaOf>;
  try {
    schema = schemaOf(db);
  } catch (e) {
    throw new AppError("invalid_request", `${file} is not a SQLite database: ${String(e)}`);
  }
  if (!schema) throw new AppError("invalid_request", `${file} is not a research-query database (no migrations table)`);
  if (schema.unknown.length)
    throw new AppError(
      "invalid_request",
      `${file} is at schema ${schemaNumber(schema.unknown.at(-1)!)} (${schema.unknown.join(", ")}), this binary knows up to ${schemaNumber(KNOWN_SCHEMA)}: upgrade research-query first`,
    );
  return schema.newest;
}

/**
 * Refuses while any process has the database open, else folds its WAL in and renames it aside.
 * Every connection in WAL mode holds a shared lock on the file for as long as it is open, and the
 * operating system drops it when the process dies: an exclusive lock we can take means no server,
 * `ask` or `corpus add` is on it, and a crashed server leaves nothing to clear first.
 */
function setAside(dbPath: string, now: Date): string {
  const db = new Database(dbPath, { readwrite: true, create: false });
  try {
    db.exec("PRAGMA busy_timeout = 0;");
    db.exec("PRAGMA locking_mode = EXCLUSIVE;");
    try {
      db.exec("BEGIN EXCLUSIVE; COMMIT;");
    } catch {
      throw new AppError(
        "invalid_request",
        `a server (or another research-query process) has ${dbPath} open: stop it, then restore`,
      );
    }
    // One file again: the replaced database needs no -wal or -shm beside it to be read.
    db.exec("PRAGMA journal_mode = DELETE;");
  } finally {
    db.close();
  }
  const aside = `${dbPath}.replaced-${now.toISOString().replaceAll(":", "-")}`;
  renameSync(dbPath, aside);
  // An index of a WAL that is gone describes nothing; a WAL still there goes with its index.
  if (!existsSync(`${dbPath}-wal`)) rmSync(`${dbPath}-shm`, { force: true });
  for (const end of ["-wal", "-shm"]) if (existsSync(dbPath + end)) renameSync(dbPath + end, aside + end);
  return aside;
}
