import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/open.ts";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/open.ts";
import { pgbouncerTests, throughPgbouncer } from "../helpers/pgbouncer.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";

export type AnyStore = SqliteStore | PostgresStore;

export interface Backend {
  name: "sqlite" | "postgres";
  /** How a test names it, when not by `name`. */
  title?: string;
  /** A new, empty, migrated store. */
  open(): Promise<AnyStore>;
  /** One number a query of the backend's own SQL answers (tests' checks of what is stored). */
  count(s: AnyStore, sqlText: string): Promise<number>;
}

const sqlite: Backend = {
  name: "sqlite",
  open: async () => openSqliteStore(":memory:"),
  count: async (s, q) => ((s as SqliteStore).raw.query(q).get() as { n: number }).n,
};

const postgres: Backend = {
  name: "postgres",
  open: async () => openPostgresStore(await freshDatabase(), { max: 4 }),
  count: async (s, q) => Number(((await (s as PostgresStore).raw.unsafe(q)) as { n: number }[])[0]!.n),
};

/** PostgreSQL through PgBouncer in transaction mode, prepared statements off (docs/decisions/0112-pgbouncer-transaction-mode.md). */
const pgbouncer: Backend = {
  ...postgres,
  title: "postgres through PgBouncer (transaction mode)",
  open: async () => openPostgresStore(await throughPgbouncer(await freshDatabase()), { max: 4, prepare: false }),
};

/** The backends the tables' own tests run on: these and PgBouncer where it is installed, always in CI. */
export const tableBackends = (): Backend[] => (pgbouncerTests ? [...backends, pgbouncer] : backends);

/**
 * The store-level tests run against every backend: SQLite always, PostgreSQL where its
 * binaries are installed and always in CI (test/helpers/postgres.ts).
 */
export const backends: Backend[] = postgresTests ? [sqlite, postgres] : [sqlite];
