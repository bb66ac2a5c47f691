import { afterAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { openPostgresStore, type PostgresStore } from "../../../src/store/postgres/open.ts";
import { pgbouncerTests, throughPgbouncer } from "../../helpers/pgbouncer.ts";
import { freshDatabase } from "../../helpers/postgres.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/** PgBouncer in transaction mode (docs/decisions/0112-pgbouncer-transaction-mode.md); the tables themselves: tables.test.ts. */

const opened: PostgresStore[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
});

describe.skipIf(!pgbouncerTests)("PgBouncer in transaction mode", () => {
  test("with prepared statements the start is refused, naming the variable, and nothing is created", async () => {
    const direct = await freshDatabase();
    const pooled = await throughPgbouncer(direct);
    await expect(openPostgresStore(pooled)).rejects.toThrow(/DATABASE_PREPARED_STATEMENTS=false/);
    const sql = new SQL(direct, { max: 1 });
    const tables = await sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`;
    await sql.close();
    expect(tables[0].n).toBe(0);
  });

  test("the same database straight to PostgreSQL is not refused", async () => {
    const s = await openPostgresStore(await freshDatabase(), { max: 2 });
    opened.push(s);
    await s.ping();
  });

  test("without them, instances through it count one allowance exactly and one Idempotency-Key starts one run", async () => {
    const pooled = await throughPgbouncer(await freshDatabase());
    const [a, b] = await Promise.all([0, 1].map(() => openPostgresStore(pooled, { max: 6, prepare: false })));
    opened.push(a!, b!);
    const owner = {
      id: crypto.randomUUID(),
      email: "p@x.org",
      passwordHash: "h",
      plan: "free" as const,
      createdAt: "2026-11-01T00:00:00.000Z",
      emailStatus: "unproven" as const,
    };
    await a!.accounts.insert(owner);
    const run = () => ({
      id: crypto.randomUUID(),
      accountId: owner.id,
      keyId: null,
      keyPrefix: null,
      origin: "api" as const,
      endpoint: "/api/query",
      query: "q",
      createdAt: new Date("2026-11-05T10:00:00Z"),
      instanceId: "i",
    });
    const plans = { free: 20, researcher: 0, pro: 0 };
    const counted = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a! : b!).runs.accept(run(), plans)),
    );
    expect(counted.filter((r) => r.accepted)).toHaveLength(20);
    const claim = { key: "k", queryHash: "h", since: new Date("2026-11-04T10:00:00Z") };
    const keyed = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a! : b!).runs.accept(run(), { ...plans, free: 40 }, claim)),
    );
    expect(keyed.filter((r) => r.accepted)).toHaveLength(1);
    expect(await b!.runCounters.used(owner.id, "2026-11")).toBe(21);
  });
});
