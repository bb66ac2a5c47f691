import { afterAll, describe, expect, test } from "bun:test";
import type { PostgresStore } from "../../src/store/postgres/open.ts";
import type { SqliteStore } from "../../src/store/sqlite/open.ts";
import type { Store } from "../../src/store/types.ts";
import { everyPlan } from "../helpers/allowances.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

const DAY = 86_400_000;
const NOW = Date.now();
// An hour into a UTC day, so the seconds between the old runs never cross midnight.
const OLD = new Date(Math.floor((NOW - 40 * DAY) / DAY) * DAY + 3600_000);
const ACCOUNT = "acc-1";
const OTHER = "acc-2";

/** A statement of the backend's own SQL, for setting up what time alone would. */
async function exec(s: AnyStore, q: string): Promise<void> {
  if ("query" in s.raw) (s as SqliteStore).raw.run(q);
  else await (s as PostgresStore).raw.unsafe(q);
}

async function account(s: Store, id: string) {
  await s.accounts.insert({
    id,
    email: `${id}@x.org`,
    passwordHash: "h",
    plan: "pro",
    createdAt: OLD.toISOString(),
    emailStatus: "unproven",
  });
}

/** A run accepted at `at` and ended with two events; `claim` an Idempotency-Key. */
async function run(
  s: Store,
  id: string,
  at: Date,
  o: { accountId?: string; claim?: string; end?: "ok" | "error" | null } = {},
) {
  const r = {
    id,
    accountId: o.accountId ?? ACCOUNT,
    keyId: null,
    keyPrefix: null,
    origin: "api" as const,
    endpoint: "/api/query",
    query: `question ${id}`,
    createdAt: at,
    instanceId: "i",
  };
  const claim = o.claim ? { key: o.claim, queryHash: "qh", since: new Date(at.getTime() - DAY) } : undefined;
  expect((await s.runs.accept(r, everyPlan(1000), claim)).accepted).toBe(true);
  const end = o.end === undefined ? "ok" : o.end;
  if (end === null) return;
  await s.runs.finish(
    id,
    {
      status: end,
      answer: "A [S1]",
      sources: [],
      errors: [],
      writer: "extractive",
      verification: null,
      tokensIn: 1,
      tokensOut: 2,
      latencyMs: 3,
    },
    [
      { atMs: 0, type: "progress", data: { seq: 1 } },
      { atMs: 5, type: "final", data: { seq: 2, status: end } },
    ],
  );
}

for (const backend of backends) {
  describe(`the retention sweep's batch on ${backend.name}`, () => {
    const opened: AnyStore[] = [];
    afterAll(async () => {
      for (const s of opened) await s.close();
    });
    const open = async () => {
      const s = await backend.open();
      opened.push(s);
      await account(s, ACCOUNT);
      await account(s, OTHER);
      return s;
    };
    const n = (s: AnyStore, q: string) => backend.count(s, `SELECT COUNT(*) AS n FROM ${q}`);
    const ids = async (s: AnyStore) => {
      const rows =
        "query" in s.raw
          ? (s as SqliteStore).raw.query("SELECT id FROM runs").all()
          : await (s as PostgresStore).raw.unsafe("SELECT id FROM runs");
      return (rows as { id: string }[]).map((r) => r.id).sort();
    };

    test("deletes old ended runs with their events and claims; keeps young, running and replayable ones; usage counts stay", async () => {
      const s = await open();
      const period = OLD.toISOString().slice(0, 7);
      await run(s, "old-ok", OLD, { claim: "k-old" });
      await run(s, "old-error", new Date(OLD.getTime() + 1000), { end: "error" });
      await run(s, "old-other", new Date(OLD.getTime() + 2000), { accountId: OTHER });
      await run(s, "old-running", new Date(OLD.getTime() + 3000), { end: null });
      await run(s, "old-ended-late", new Date(OLD.getTime() + 4000));
      await run(s, "old-claimed-late", new Date(OLD.getTime() + 5000), { claim: "k-late" });
      await run(s, "young", new Date(NOW - DAY));
      // Runs end when they end: those that ended long ago, as time would have it.
      await exec(s, `UPDATE runs SET finished_at = created_at WHERE id NOT IN ('old-ended-late', 'young')`);
      // A claim on an old run made within the day (its window) keeps the run replayable.
      await exec(
        s,
        `UPDATE idempotency_keys SET created_at = '${new Date(NOW - 3600_000).toISOString()}' WHERE key = 'k-late'`,
      );
      const usage = async () => ({
        days: await s.runs.perDay(ACCOUNT, period),
        other: await s.runs.perDay(OTHER, period),
        used: await s.runCounters.used(ACCOUNT, period),
      });
      const before = await usage();
      expect(before.days).toEqual([{ date: OLD.toISOString().slice(0, 10), calls: 5, ok: 3, error: 1 }]);

      const cutoff = new Date(NOW - 30 * DAY);
      const replayableSince = new Date(NOW - DAY);
      expect(await s.runs.deleteRunsBefore(cutoff, 1, replayableSince)).toBe(1);
      expect(await ids(s)).not.toContain("old-ok"); // the oldest first
      expect(await s.runs.deleteRunsBefore(cutoff, 100, replayableSince)).toBe(2);
      expect(await s.runs.deleteRunsBefore(cutoff, 100, replayableSince)).toBe(0);
      expect(await ids(s)).toEqual(["old-claimed-late", "old-ended-late", "old-running", "young"]);
      expect(await n(s, "run_events WHERE run_id IN ('old-ok', 'old-error', 'old-other')")).toBe(0);
      expect(await n(s, "idempotency_keys WHERE key = 'k-old'")).toBe(0);
      expect(await n(s, "run_events")).toBe(6); // two each of the three ended runs kept
      expect(await usage()).toEqual(before);
    });

    test("batches racing each other delete and count each run once", async () => {
      const s = await open();
      const period = OLD.toISOString().slice(0, 7);
      for (let i = 0; i < 30; i++)
        await run(s, `r${String(i).padStart(2, "0")}`, new Date(OLD.getTime() + i * 1000), {
          end: i % 3 ? "ok" : "error",
        });
      await exec(s, "UPDATE runs SET finished_at = created_at");
      const before = await s.runs.perDay(ACCOUNT, period);
      const cutoff = new Date(NOW - 30 * DAY);
      const deleted = await Promise.all(
        Array.from({ length: 6 }, () => s.runs.deleteRunsBefore(cutoff, 4, new Date(NOW - DAY))),
      );
      let total = deleted.reduce((a, b) => a + b, 0);
      for (;;) {
        const more = await s.runs.deleteRunsBefore(cutoff, 4, new Date(NOW - DAY));
        if (!more) break;
        total += more;
      }
      expect(total).toBe(30);
      expect(await n(s, "runs")).toBe(0);
      expect(await s.runs.perDay(ACCOUNT, period)).toEqual(before);
      expect(await s.runCounters.used(ACCOUNT, period)).toBe(30);
    });
  });
}
