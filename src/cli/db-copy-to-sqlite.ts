import { existsSync, renameSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { AppError } from "../contract/errors.ts";
import { copyToSqlite } from "../store/postgres/copy-to-sqlite.ts";
import { openPostgresStore } from "../store/postgres/open.ts";
import { syncFile, syncFolder } from "../store/sqlite/file-sync.ts";
import { openSqliteStore } from "../store/sqlite/open.ts";
import { redactUrl, redactUrlIn } from "../util/redact-url.ts";
import { EXIT } from "./command.ts";
import { columns } from "./terminal.ts";

/**
 * `db copy --to FILE` with DATABASE_URL set: the PostgreSQL database into a new SQLite file while
 * the instances run (a backup `db restore` can put back). Written under a temporary name beside
 * FILE, made one self-contained file, fsynced, then renamed (docs/decisions/0188-postgres-copied-to-a-sqlite-file.md).
 */
export async function dbCopyToSqlite(url: string, file: string): Promise<number> {
  const target = resolve(file);
  if (existsSync(target)) throw new AppError("invalid_request", `${file} exists: copy into a new file`);
  let src: Awaited<ReturnType<typeof openPostgresStore>>;
  try {
    src = await openPostgresStore(url, { max: 2 });
  } catch (e) {
    throw new AppError(
      "config_invalid",
      `cannot open DATABASE_URL ${redactUrl(url)}: ${redactUrlIn(String(e), url)}`,
      500,
    );
  }
  const temp = `${target}.partial-${process.pid}`;
  rmSync(temp, { force: true });
  const dst = openSqliteStore(temp);
  try {
    const report = await copyToSqlite(src.raw, dst);
    // One file: no WAL beside it to lose in the rename.
    dst.raw.exec("PRAGMA journal_mode = DELETE;");
    dst.close();
    syncFile(temp);
    renameSync(temp, target);
    syncFolder(target);
    console.log(columns([["table", "rows"], ...report.map((r) => [r.table, r.rows.toLocaleString("en")])]));
    process.stderr.write(`copied ${redactUrl(url)} to ${target}; every table's rows counted on both sides\n`);
    return EXIT.ok;
  } catch (e) {
    dst.close();
    for (const end of ["", "-wal", "-shm", "-journal"]) rmSync(temp + end, { force: true });
    throw e;
  } finally {
    await src.close();
  }
}
