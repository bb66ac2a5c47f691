import { afterAll, describe, expect, test } from "bun:test";
import { LoginThrottle, loginAttemptsFor } from "../../../src/auth/login-throttle.ts";
import { SignupRate } from "../../../src/auth/signup-limits.ts";
import { isAppError } from "../../../src/contract/errors.ts";
import { RANKING, searcherOf } from "../../../src/corpus/search/search-corpus.ts";
import { pgMigrations } from "../../../src/store/postgres/migrations.ts";
import { openPostgresStore, type PostgresStore } from "../../../src/store/postgres/open.ts";
import type { AccountRow, NewRun } from "../../../src/store/types.ts";
import { putInto } from "../../corpus/collections-helpers.ts";
import { everyPlan } from "../../helpers/allowances.ts";
import { freshDatabase, postgresTests } from "../../helpers/postgres.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/**
 * Several instances on one PostgreSQL database: each store here has its own connection pool,
 * as each server process would, and the calls race over all of them at once.
 */

const opened: PostgresStore[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
});

/** `n` stores on one fresh database, opened at the same moment (their migrations race too). */
async function instances(n: number, url?: string): Promise<PostgresStore[]> {
  const db = url ?? (await freshDatabase());
  const stores = await Promise.all(Array.from({ length: n }, () => openPostgresStore(db, { max: 4 })));
  opened.push(...stores);
  return stores;
}

const account = (): AccountRow => ({
  id: crypto.randomUUID(),
  email: `${crypto.randomUUID()}@x.org`,
  passwordHash: "h",
  plan: "free",
  createdAt: "2026-11-01T00:00:00.000Z",
  emailStatus: "unproven",
});

const run = (accountId: string, instanceId = "i"): NewRun => ({
  id: crypto.randomUUID(),
  accountId,
  keyId: null,
  keyPrefix: null,
  origin: "api",
  endpoint: "/api/query",
  query: "q",
  createdAt: new Date("2026-11-05T10:00:00Z"),
  instanceId,
});

const count = async (s: PostgresStore, table: string) =>
  Number((await s.raw.unsafe(`SELECT count(*)::int AS n FROM ${table}`))[0].n);

describe.skipIf(!postgresTests)("instances on one PostgreSQL database", () => {
  test("migrations racing from three instances apply once", async () => {
    const stores = await instances(3);
    const rows = await stores[0]!.raw`SELECT tag FROM __migrations ORDER BY tag`;
    expect(rows.map((r: { tag: string }) => r.tag)).toEqual(pgMigrations.map((m) => m.tag));
  });

  test("60 calls spread over two instances against an allowance of 40: exactly 40 accepted and counted", async () => {
    const [a, b] = await instances(2);
    const owner = account();
    await a!.accounts.insert(owner);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a! : b!).runs.accept(run(owner.id), everyPlan(40))),
    );
    expect(results.filter((r) => r.accepted)).toHaveLength(40);
    expect(await b!.runCounters.used(owner.id, "2026-11")).toBe(40);
    // A refused call wrote nothing.
    expect(await count(a!, "runs")).toBe(40);
  });

  test("one Idempotency-Key retried on three instances at once starts one run, charged once", async () => {
    const stores = await instances(3);
    const owner = account();
    await stores[0]!.accounts.insert(owner);
    const claim = { key: "retry-me", queryHash: "h", since: new Date("2026-11-04T10:00:00Z") };
    const runs = Array.from({ length: 30 }, () => run(owner.id));
    const results = await Promise.all(runs.map((r, i) => stores[i % 3]!.runs.accept(r, everyPlan(10), claim)));
    const accepted = runs.filter((_, i) => results[i]!.accepted);
    expect(accepted).toHaveLength(1);
    for (const r of results)
      if (!r.accepted) expect(r).toEqual({ accepted: false, existing: accepted[0]!.id, sameQuery: true });
    expect(await stores[1]!.runCounters.used(owner.id, "2026-11")).toBe(1);
    expect(await count(stores[2]!, "runs")).toBe(1);
  });

  test("the generated session secret: three instances starting together agree on one", async () => {
    const stores = await instances(3);
    const values = await Promise.all(
      stores.map((s, i) => s.settings.getOrCreate("session_secret", () => `secret-of-${i}`)),
    );
    expect(new Set(values).size).toBe(1);
    expect(await count(stores[0]!, "settings")).toBe(1);
  });

  test("one identity's first sign-in on three instances at once makes one account and one link", async () => {
    const stores = await instances(3);
    const claim = { issuer: "https://idp", subject: "s", email: "first@x.org", emailVerified: true };
    const outcomes = await Promise.all(
      Array.from({ length: 9 }, (_, i) => stores[i % 3]!.identities.link(claim, "free")),
    );
    expect(new Set(outcomes.map((o) => ("accountId" in o ? o.accountId : o.refused))).size).toBe(1);
    expect(await count(stores[0]!, "accounts")).toBe(1);
    expect(await count(stores[0]!, "identities")).toBe(1);
  });

  test("a live instance's runs are never marked by another; a dead one's are, by whichever asks", async () => {
    const [a, b] = await instances(2);
    const interrupted = { code: "interrupted", message: "m" };
    await a!.instances.renew("a", 60_000);
    await b!.instances.renew("b", 60_000);
    const owner = account();
    await a!.accounts.insert(owner);
    await a!.runs.accept(run(owner.id, "a"), null);
    await b!.runs.accept(run(owner.id, "b"), null);
    expect(await a!.runs.markInterrupted(interrupted)).toBe(0);
    expect(await b!.runs.markInterrupted(interrupted)).toBe(0);
    // b's lease ends on the database's clock, whatever b's host believes.
    await b!.raw`UPDATE instances SET expires_at = now() - interval '1 second' WHERE id = 'b'`;
    expect(await a!.runs.markInterrupted(interrupted)).toBe(1);
    expect(await a!.instances.forgetExpired()).toBe(1);
    // b comes back: its lease had lapsed.
    expect(await b!.instances.renew("b", 60_000)).toBe(false);
    const statuses = await a!.raw`SELECT instance_id, status FROM runs ORDER BY instance_id`;
    expect([...statuses]).toEqual([
      { instance_id: "a", status: "running" },
      { instance_id: "b", status: "error" },
    ]);
  });

  test("a running run's stream events: read back in order from another instance, gone when it finishes, never written after", async () => {
    const [a, b] = await instances(2);
    const owner = account();
    await a!.accounts.insert(owner);
    const r = run(owner.id);
    await a!.runs.accept(r, null);
    const ev = (seq: number) => ({
      seq,
      event: { event: "progress", data: { stage: "planning", message: `m${seq}` } },
    });
    await a!.runStream!.append(r.id, [ev(1), ev(2)]);
    await a!.runStream!.append(r.id, [ev(2), ev(3)]);
    expect(await b!.runStream!.after(r.id, 1)).toEqual([ev(2), ev(3)]);
    await a!.runs.finish(
      r.id,
      { status: "ok", answer: "x", sources: [], errors: [], writer: null, tokensIn: 0, tokensOut: 0, latencyMs: 1 },
      [],
    );
    expect(await b!.runStream!.after(r.id, 0)).toEqual([]);
    await a!.runStream!.append(r.id, [ev(4)]);
    expect(await b!.runStream!.after(r.id, 0)).toEqual([]);
  });

  test("one collection imported from three instances at once: each document once, its index whole", async () => {
    const stores = await instances(3);
    const doc = (id: string) => ({
      docId: id,
      title: `T ${id}`,
      url: null,
      path: null,
      format: "text",
      contentHash: id,
      truncated: false,
      passages: [`tide ${id}`],
    });
    // The collection exists already: its creation would queue the writers by itself.
    await putInto(stores[0]!, "notes", [doc("seed")]);
    const batch = Array.from({ length: 20 }, (_, i) => doc(`d${i}`));
    const outcomes = await Promise.all(stores.map((s) => putInto(s, "notes", batch)));
    // One instance added each document; the others found it there unchanged.
    for (let i = 0; i < batch.length; i++)
      expect(outcomes.map((o) => o[i]).sort()).toEqual(["added", "unchanged", "unchanged"]);
    expect(await count(stores[0]!, "corpus_documents")).toBe(21);
    expect(await count(stores[0]!, "corpus_passages")).toBe(21);
    expect((await searcherOf(stores[1]!).rank({ words: ["tide"], ranking: RANKING }, null, 50)).length).toBe(21);
  });

  test("sign-ups from one address count the same on every instance: a burst spread over three gets one budget", async () => {
    const stores = await instances(3);
    const now = () => 1_000_000;
    const rates = stores.map((s) => new SignupRate(5, now, s.signupBuckets));
    const tries = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => rates[i % 3]!.take("203.0.113.9")));
    expect(tries.filter((t) => t.status === "fulfilled")).toHaveLength(5);
    for (const t of tries)
      if (t.status === "rejected") expect(isAppError(t.reason) && t.reason.code).toBe("too_many_signups");
    // Another address has its own budget.
    await rates[2]!.take("198.51.100.1");
  });

  test("sign-in attempts count the same on every instance: guesses spread over three get one budget", async () => {
    const stores = await instances(3);
    const now = () => 1_000_000;
    const throttles = stores.map((s) => new LoginThrottle(loginAttemptsFor(s), now));
    const who = (i: number) => ({ email: "victim@x.org", client: `203.0.113.${i}`, device: null });
    const tries = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => throttles[i % 3]!.begin(who(i))));
    const begun = tries.flatMap((t) => (t.status === "fulfilled" ? [t.value] : []));
    // Five free failures per email: at most five guesses in flight, whichever instances they reach.
    expect(begun).toHaveLength(5);
    for (const t of tries)
      if (t.status === "rejected") expect(isAppError(t.reason) && t.reason.code).toBe("too_many_attempts");
    await Promise.all(begun.map((a) => a.settle("failure")));
    // The email is now blocked for everyone, on every instance; another email is not.
    for (const t of throttles) expect(await t.begin(who(99)).catch((e) => e.code)).toBe("too_many_attempts");
    const other = await throttles[0]!.begin({ ...who(99), email: "someone@x.org" });
    await other.settle("success");
  });
});
