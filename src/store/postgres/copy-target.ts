import type { SQL } from "bun";
import { SERVICE_TABLES } from "./copy-from-sqlite.ts";

/** The migrations' own record (migrate.ts): the service's too. */
const OURS = new Set([...SERVICE_TABLES, "__migrations"]);

/**
 * Tables, views and foreign tables in the schema the service would write to (the connection's
 * current schema) that are not the service's, in name order: every one when the migrations'
 * record is missing (the service makes it with its first tables, in one transaction: an
 * `accounts` without it is another application's). `db copy` refuses a target holding any
 * before it creates anything there. Threat: a mistyped --to URL filling another application's
 * database with ours, or our migrations meeting its tables of the same names.
 */
export async function foreignTables(tx: SQL): Promise<{ schema: string; tables: string[] }> {
  const rows = (await tx`SELECT current_schema() AS schema, c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
    ORDER BY c.relname`) as { schema: string; name: string }[];
  const schema = rows[0]?.schema ?? String((await tx`SELECT current_schema() AS s`)[0].s);
  const names = rows.map((r) => r.name);
  const migrated = names.includes("__migrations");
  return { schema, tables: names.filter((n) => !migrated || !OURS.has(n)) };
}
