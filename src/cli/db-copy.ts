import { existsSync } from "node:fs";
import type { SQL } from "bun";
import { AppError } from "../contract/errors.ts";
import { copyFromSqlite, postgresRowCounts } from "../store/postgres/copy-from-sqlite.ts";
import { foreignTables } from "../store/postgres/copy-target.ts";
import { openPostgresStore } from "../store/postgres/open.ts";
import { openSqliteStore } from "../store/sqlite/open.ts";
import { redactUrl, redactUrlIn } from "../util/redact-url.ts";
import { type CommandInput, EXIT, UsageError } from "./command.ts";
import { columns } from "./terminal.ts";

/**
 * `db copy --to postgres://…`: the SQLite database at DATABASE_PATH into an empty PostgreSQL
 * one, for moving a single server to several (README "PostgreSQL"). The target is migrated
 * first and must hold no rows, nor any table not the service's (checked before anything is
 * created there); the copy is one transaction, checked table by table.
 */
export async function dbCopy({ cfg, options }: CommandInput): Promise<number> {
  const to = String(options.to);
  const toPostgres = /^postgres(ql)?:\/\//.test(to);
  // From PostgreSQL back to a SQLite file: a backup, or a way back to one server.
  if (cfg.DATABASE_URL && !toPostgres)
    return (await import("./db-copy-to-sqlite.ts")).dbCopyToSqlite(cfg.DATABASE_URL, to);
  if (!toPostgres)
    throw new UsageError("--to needs the target's postgres:// URL (or, with DATABASE_URL set, a new SQLite file)");
  const from = cfg.DATABASE_PATH;
  if (from === ":memory:" || !existsSync(from))
    throw new AppError(
      "config_invalid",
      `invalid DATABASE_PATH=${JSON.stringify(from)}: no SQLite database there to copy`,
      500,
    );
  const src = openSqliteStore(from);
  let dst: Awaited<ReturnType<typeof openPostgresStore>> | undefined;
  const onlyOurs = async (tx: SQL) => {
    const { schema, tables } = await foreignTables(tx);
    if (tables.length)
      throw new AppError(
        "invalid_request",
        `the target ${redactUrl(to)} holds ${tables.length} table${tables.length === 1 ? "" : "s"} that research-query did not make in schema ${schema} (${named(tables)}); nothing was created: copy into a database of its own`,
      );
  };
  try {
    try {
      dst = await openPostgresStore(to, { max: 2, beforeMigrating: onlyOurs });
    } catch (e) {
      if (e instanceof AppError) throw e;
      throw new AppError("config_invalid", `cannot open --to ${redactUrl(to)}: ${redactUrlIn(String(e), to)}`, 500);
    }
    const present = (await postgresRowCounts(dst.raw)).filter((t) => t.rows > 0);
    if (present.length)
      throw new AppError(
        "invalid_request",
        `the target ${redactUrl(to)} is not empty (${present.map((t) => `${t.table}: ${t.rows}`).join(", ")}); copy into an empty database`,
      );
    const report = await copyFromSqlite(src.raw, dst.raw);
    console.log(columns([["table", "rows"], ...report.map((r) => [r.table, r.rows.toLocaleString("en")])]));
    const cleaned = report.filter((r) => r.cleaned);
    if (cleaned.length)
      process.stderr.write(
        `rows holding NUL, which PostgreSQL cannot store, copied with U+FFFD in its place: ${cleaned.map((r) => `${r.table}: ${r.cleaned}`).join(", ")}\n`,
      );
    process.stderr.write(`copied ${from} to ${redactUrl(to)}; every table's rows counted on both sides\n`);
    return EXIT.ok;
  } finally {
    src.close();
    await dst?.close();
  }
}

/** A few names of a long list, and how many more. */
function named(names: string[], shown = 5): string {
  const more = names.length - shown;
  return names.slice(0, shown).join(", ") + (more > 0 ? ` and ${more} more` : "");
}
