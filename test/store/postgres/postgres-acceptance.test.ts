import { afterAll, describe, expect, test } from "bun:test";
import { authenticateKey, createKey } from "../../../src/keys/api-keys.ts";
import { openPostgresStore, type PostgresStore } from "../../../src/store/postgres/open.ts";
import type { AccountRow, NewRun, Store } from "../../../src/store/types.ts";
import { everyPlan } from "../../helpers/allowances.ts";
import { roundTripCounter } from "../../helpers/pg-round-trips.ts";
import { freshDatabase, postgresTests } from "../../helpers/postgres.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/** Acceptance on PostgreSQL: one round trip, and still exact across pools (docs/decisions/0111-acceptance-in-one-round-trip.md). */

const opened: { close(): unknown }[] = [];
afterAll(async () => {
  for (const s of opened.reverse()) await s.close();
});

const account = (): AccountRow => ({
  id: crypto.randomUUID(),
  email: `${crypto.randomUUID()}@x.org`,
  passwordHash: "h",
  plan: "free",
  createdAt: "2026-11-01T00:00:00.000Z",
  emailStatus: "unproven",
});

const run = (accountId: string): NewRun => ({
  id: crypto.randomUUID(),
  accountId,
  keyId: null,
  keyPrefix: null,
  origin: "api",
  endpoint: "/api/query",
  query: "q",
  createdAt: new Date("2026-11-05T10:00:00Z"),
  instanceId: "i",
});

const outcome = {
  status: "ok" as const,
  answer: "a",
  sources: [],
  errors: [],
  writer: "extractive" as const,
  tokensIn: 1,
  tokensOut: 1,
  latencyMs: 1,
};

const count = async (s: PostgresStore, table: string) =>
  Number((await s.raw.unsafe(`SELECT count(*)::int AS n FROM ${table}`))[0].n);

describe.skipIf(!postgresTests)("acceptance on PostgreSQL", () => {
  test("an accepted run with an Idempotency-Key is one round trip, its finish with its timeline one more", async () => {
    const db = await freshDatabase();
    const proxy = await roundTripCounter(db);
    opened.push(proxy);
    const s = await openPostgresStore(proxy.url, { max: 1 });
    opened.push(s);
    const owner = account();
    await s.accounts.insert(owner);
    const since = new Date("2026-11-04T10:00:00Z");
    const timeline = [
      { atMs: 0, type: "progress", data: { seq: 1 } },
      { atMs: 3, type: "final", data: { seq: 2 } },
    ];
    // The first use of a statement on a connection also prepares it.
    const warm = run(owner.id);
    await s.runs.accept(warm, everyPlan(10), { key: "warm", queryHash: "h", since });
    await s.runs.finish(warm.id, outcome, timeline);
    const r = run(owner.id);
    const before = proxy.roundTrips;
    expect(await s.runs.accept(r, everyPlan(10), { key: "k", queryHash: "h", since })).toEqual({ accepted: true });
    expect(proxy.roundTrips - before).toBe(1);
    await s.runs.finish(r.id, outcome, timeline);
    expect(proxy.roundTrips - before).toBe(2);
    expect((await s.runs.withEvents(owner.id, r.id))?.events).toEqual(timeline);
  });

  test("60 calls over two pools against 40, each with its own key: 40 runs, 40 claims, 40 counted; refusals wrote nothing", async () => {
    const db = await freshDatabase();
    const [a, b] = await Promise.all([openPostgresStore(db, { max: 4 }), openPostgresStore(db, { max: 4 })]);
    opened.push(a, b);
    const owner = account();
    await a.accounts.insert(owner);
    const since = new Date("2026-11-04T10:00:00Z");
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? a : b).runs.accept(run(owner.id), everyPlan(40), { key: `k${i}`, queryHash: "h", since }),
      ),
    );
    expect(results.filter((r) => r.accepted)).toHaveLength(40);
    expect(results.filter((r) => !r.accepted)).toEqual(Array(20).fill({ accepted: false }));
    expect(await a.runCounters.used(owner.id, "2026-11")).toBe(40);
    expect(await count(b, "runs")).toBe(40);
    expect(await count(a, "idempotency_keys")).toBe(40);
  });
});

describe.skipIf(!postgresTests)("the key's last use on PostgreSQL", () => {
  test("a burst of calls with one key touches its row once, not once per call", async () => {
    const store = await openPostgresStore(await freshDatabase(), { max: 4 });
    opened.push(store);
    const owner = account();
    await store.accounts.insert(owner);
    const { key } = await createKey(store, owner.id, "k", 100);
    const touches: string[] = [];
    const counted: Store = {
      ...store,
      apiKeys: {
        ...store.apiKeys,
        touch: (id, at) => {
          touches.push(id);
          return store.apiKeys.touch(id, at);
        },
      },
    };
    const ids = await Promise.all(Array.from({ length: 30 }, () => authenticateKey(counted, key)));
    expect(new Set(ids.map((i) => i.accountId))).toEqual(new Set([owner.id]));
    expect(touches).toHaveLength(1);
  });
});
