import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { groupCommit } from "../../../src/store/sqlite/group-commit.ts";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/open.ts";
import type { AccountRow, NewRun } from "../../../src/store/types.ts";
import { everyPlan } from "../../helpers/allowances.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/**
 * SQLite's acceptances and finishes of one turn share a commit, each still behaving as it would
 * alone (docs/decisions/0110-the-first-event-before-the-engine.md). Commits are counted in the
 * WAL file itself: every commit ends with a frame whose header carries the database's size, the
 * others carry 0. The store's connection doesn't checkpoint here, so the WAL only grows.
 */
function commitsInWal(dbPath: string): number {
  const wal = readFileSync(`${dbPath}-wal`);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    // A frame of an earlier WAL generation ends this one, as SQLite reads it.
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}

const dir = mkdtempSync(join(tmpdir(), "rq-group-commit-"));
const stores: SqliteStore[] = [];
afterAll(() => {
  for (const s of stores) s.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storeWithAccount(name: string) {
  const path = join(dir, `${name}.db`);
  const s = openSqliteStore(path);
  stores.push(s);
  s.raw.exec("PRAGMA wal_autocheckpoint = 0;");
  const account: AccountRow = {
    id: crypto.randomUUID(),
    email: `${name}@x.org`,
    passwordHash: "h",
    plan: "free",
    createdAt: "2026-11-01T00:00:00.000Z",
    emailStatus: "unproven",
  };
  await s.accounts.insert(account);
  const count = (q: string) => (s.raw.query(q).get() as { n: number }).n;
  return { s, path, accountId: account.id, count, commits: () => commitsInWal(path) };
}

const newRun = (accountId: string): NewRun => ({
  id: crypto.randomUUID(),
  accountId,
  keyId: null,
  keyPrefix: "rq-abc",
  origin: "api",
  endpoint: "/api/query",
  query: "q",
  createdAt: new Date("2026-11-05T10:00:00Z"),
  instanceId: "i-test",
});

const outcome = {
  status: "ok" as const,
  answer: "a",
  sources: [],
  errors: [],
  writer: "extractive" as const,
  tokensIn: 1,
  tokensOut: 2,
  latencyMs: 3,
};

describe("SQLite group commit", () => {
  test("a crowd's acceptances in one turn share one commit, and the allowance still counts each: N accepted, the rest refused", async () => {
    const { s, accountId, count, commits } = await storeWithAccount("allowance");
    const before = commits();
    const runs = Array.from({ length: 8 }, () => newRun(accountId));
    const got = await Promise.all(runs.map((r) => s.runs.accept(r, everyPlan(5))));
    expect(commits() - before).toBe(1);
    // In the order asked: the first five take the allowance.
    expect(got).toEqual([...Array(5).fill({ accepted: true }), ...Array(3).fill({ accepted: false })]);
    expect(await s.runCounters.used(accountId, "2026-11")).toBe(5);
    expect(count("SELECT COUNT(*) AS n FROM runs")).toBe(5);
    expect((await s.runs.recent(accountId, 10)).map((r) => r.request_id).sort()).toEqual(
      runs
        .slice(0, 5)
        .map((r) => r.id)
        .sort(),
    );
    // Asked one turn after another, each its own commit.
    await s.runs.accept(newRun(accountId), everyPlan(10));
    await s.runs.accept(newRun(accountId), everyPlan(10));
    expect(commits() - before).toBe(3);
  });

  test("one Idempotency-Key twice in one turn: one run, the second names the first", async () => {
    const { s, accountId, count } = await storeWithAccount("idempotent");
    const claim = { key: "k", queryHash: "q1", since: new Date("2026-11-04T10:00:00Z") };
    const [first, second] = [newRun(accountId), newRun(accountId)];
    const got = await Promise.all([
      s.runs.accept(first, everyPlan(10), claim),
      s.runs.accept(second, everyPlan(10), claim),
    ]);
    expect(got).toEqual([{ accepted: true }, { accepted: false, existing: first.id, sameQuery: true }]);
    expect(count("SELECT COUNT(*) AS n FROM runs")).toBe(1);
    expect(await s.runCounters.used(accountId, "2026-11")).toBe(1);
  });

  test("a write that fails rejects only its own promise; the rest of its batch is committed", async () => {
    const { s, accountId, count, commits } = await storeWithAccount("one-fails");
    const [a, b] = [newRun(accountId), newRun(accountId)];
    const before = commits();
    const got = await Promise.allSettled([
      s.runs.accept(a, everyPlan(10)),
      // The same run id again: the primary key refuses it, after its counter bump.
      s.runs.accept({ ...newRun(accountId), id: a.id }, everyPlan(10)),
      s.runs.accept(b, everyPlan(10)),
    ]);
    expect(got[0]).toEqual({ status: "fulfilled", value: { accepted: true } });
    expect(got[1]).toMatchObject({
      status: "rejected",
      reason: expect.objectContaining({ code: expect.stringContaining("SQLITE_CONSTRAINT") }),
    });
    expect(got[2]).toEqual({ status: "fulfilled", value: { accepted: true } });
    expect(commits() - before).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM runs")).toBe(2);
    // The failed one's bump went with it.
    expect(await s.runCounters.used(accountId, "2026-11")).toBe(2);
  });

  test("a commit that can't be made (another connection holds the write lock) fails the whole batch and writes nothing", async () => {
    const { s, path, accountId, count, commits } = await storeWithAccount("locked");
    const other = new Database(path);
    s.raw.exec("PRAGMA busy_timeout = 50;");
    other.exec("BEGIN IMMEDIATE;");
    const before = commits();
    const got = await Promise.allSettled([0, 1, 2].map(() => s.runs.accept(newRun(accountId), everyPlan(10))));
    other.exec("ROLLBACK;");
    other.close();
    expect(got.map((g) => g.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const g of got) expect((g as PromiseRejectedResult).reason).toMatchObject({ code: "SQLITE_BUSY" });
    expect(commits()).toBe(before);
    expect(count("SELECT COUNT(*) AS n FROM runs")).toBe(0);
    expect(await s.runCounters.used(accountId, "2026-11")).toBe(0);
    // The lock gone, the next turn's batch commits.
    expect(await s.runs.accept(newRun(accountId), everyPlan(10))).toEqual({ accepted: true });
    expect(commits() - before).toBe(1);
  });

  test("finishes of one turn share one commit with the acceptances asked beside them, each with its own timeline", async () => {
    const { s, accountId, count, commits } = await storeWithAccount("finish");
    const runs = [newRun(accountId), newRun(accountId), newRun(accountId)];
    for (const r of runs) await s.runs.accept(r, everyPlan(10));
    const before = commits();
    const late = newRun(accountId);
    await Promise.all([
      ...runs.map((r, i) =>
        s.runs.finish(r.id, { ...outcome, answer: `answer ${i}` }, [
          { atMs: i, type: "final", data: { seq: 1, run: i } },
        ]),
      ),
      s.runs.accept(late, everyPlan(10)),
    ]);
    expect(commits() - before).toBe(1);
    for (const [i, r] of runs.entries()) {
      const got = await s.runs.withEvents(accountId, r.id);
      expect(got?.run).toMatchObject({ status: "ok", answer: `answer ${i}` });
      expect(got?.events).toEqual([{ atMs: i, type: "final", data: { seq: 1, run: i } }]);
    }
    expect(count("SELECT COUNT(*) AS n FROM runs")).toBe(4);
  });
});

describe("when a write is committed", () => {
  /** Which came first: the write's commit, or a turn of the loop asked for just before it. */
  const race = async (write: () => Promise<unknown>) => {
    const order: string[] = [];
    setImmediate(() => order.push("turn"));
    await write().then(() => order.push("committed"));
    await new Promise((r) => setImmediate(r));
    return order;
  };

  test("alone (no commit for a while): as soon as the caller yields, ahead of the loop's next turn", async () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (x INTEGER)");
    let clock = 1000;
    const together = groupCommit(db, () => clock);
    expect(await race(() => together(() => db.run("INSERT INTO t VALUES (1)")))).toEqual(["committed", "turn"]);
    clock += 10;
    expect(await race(() => together(() => db.run("INSERT INTO t VALUES (2)")))).toEqual(["committed", "turn"]);
    expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 });
  });

  test("in a crowd (a commit moments ago): on the loop's next turn, with the turn's others", async () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (x INTEGER)");
    const clock = 1000;
    const together = groupCommit(db, () => clock);
    await together(() => db.run("INSERT INTO t VALUES (1)"));
    // The clock has not moved: the next write comes in the same moment as that commit.
    expect(await race(() => together(() => db.run("INSERT INTO t VALUES (2)")))).toEqual(["turn", "committed"]);
  });
});
