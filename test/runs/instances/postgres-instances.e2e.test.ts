import { afterAll, describe, expect, test } from "bun:test";
import type { Engine } from "../../../src/research/types.ts";
import type { RunningServer } from "../../../src/server/server.ts";
import { openPostgresStore, type PostgresStore } from "../../../src/store/postgres/open.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { freshDatabase, postgresTests } from "../../helpers/postgres.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { Client, keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";
import { followedOnTheOtherInstance } from "./follow-elsewhere.ts";
import { LIVE, spawnLeased } from "./leased-server.ts";

useLongTimeout();

/** Instances on one PostgreSQL database, as on one SQLite file (shared-database, instance-lease tests). */

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop(100);
});

async function start(engine: Engine, url: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const s = startTestServer({
    env: { DATABASE_URL: url, LOG_LEVEL: "warn", ...env },
    engine,
    store: await openPostgresStore(url, { max: 4 }),
    logger: createLogger("silent"),
    lease: LIVE,
  });
  servers.push(s);
  return s;
}

/** Waits (bounded, never a fixed sleep) until `done` holds. */
async function until(what: string, done: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`still not: ${what}`);
    await Bun.sleep(50);
  }
}

describe.skipIf(!postgresTests)("instances on one PostgreSQL database", () => {
  test("three instances starting together: one schema, one secret; calls spread over them never pass the allowance", async () => {
    const url = await freshDatabase();
    const three = await Promise.all([1, 2, 3].map(() => start(scriptedEngine(), url, { PLAN_RUNS_FREE: "40" })));
    const { c, key } = await keyedClient(three[0]!.url);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => query(three[i % 3]!.url, key, { query: `q${i}` }).then((r) => r.status)),
    );
    expect(answers.filter((s) => s === 200)).toHaveLength(40);
    expect(answers.filter((s) => s === 429)).toHaveLength(20);
    const elsewhere = Object.assign(new Client(three[2]!.url), { cookie: c.cookie });
    expect(await elsewhere.used()).toBe(40);
    const db = (three[1]!.deps.store as PostgresStore).raw;
    expect((await db`SELECT count(*)::int AS n FROM settings`)[0].n).toBe(1);
  });

  test("a retry or a resume that reaches the other instance follows the run there: same answer, one run", async () => {
    const url = await freshDatabase();
    const started: RunningServer[] = [];
    await followedOnTheOtherInstance(async (engine) => {
      started.push(await start(engine, url));
      return started.at(-1)!;
    });
    const db = (started[1]!.deps.store as PostgresStore).raw;
    expect((await db`SELECT count(*)::int AS n FROM runs`)[0].n).toBe(1);
  });

  test("a stream resumed on another instance follows the run live there, before it ends, event for event", async () => {
    const url = await freshDatabase();
    const gate = Promise.withResolvers<void>();
    const engA = scriptedEngine({ gate: gate.promise, deltas: ["a ", "b ", "c [S1]."] });
    const [a, b] = [await start(engA, url), await start(scriptedEngine(), url)];
    const { key } = await keyedClient(a.url);
    const res = await query(a.url, key, { query: "q" }, {}, "/api/query/stream");
    const rid = res.headers.get("x-request-id")!;
    const onA = readSse(res);
    await engA.started;
    // The engine has told of its stages up to writing and waits at its gate: B must hear them now.
    const writing = Promise.withResolvers<void>();
    const onB = query(b.url, key, null, { "last-event-id": `${rid}:1` }, "/api/query/stream").then((r) =>
      readSse(r, (e) => {
        if (e.event === "progress" && e.data.stage === "writing") writing.resolve();
      }),
    );
    await writing.promise;
    const db = (b.deps.store as PostgresStore).raw;
    expect((await db`SELECT status FROM runs WHERE id = ${rid}`)[0].status).toBe("running");
    gate.resolve();
    const [fromA, fromB] = await Promise.all([onA, onB]);
    expect(fromB.events).toEqual(fromA.events.slice(1));
    expect(answerOf(fromB.events)).toBe("a b c [S1].");
    // Its events in flight are gone with the run's end: the timeline holds them.
    expect((await db`SELECT count(*)::int AS n FROM run_stream`)[0].n).toBe(0);
  });

  test("a killed instance's run is interrupted by a live one once its lease expires on the database's clock", async () => {
    const url = await freshDatabase();
    const live = await start(scriptedEngine(), url);
    const dying = await spawnLeased(url);
    try {
      const { key } = await keyedClient(dying.url);
      const res = await query(dying.url, key, { query: "q" }, {}, "/api/query/stream");
      const rid = res.headers.get("x-request-id")!;
      await res.body!.cancel();
      const db = (live.deps.store as PostgresStore).raw;
      const state = async () =>
        (
          await db`SELECT r.status, r.errors, i.expires_at FROM runs r LEFT JOIN instances i ON i.id = r.instance_id
          WHERE r.id = ${rid}`
        )[0] as { status: string; errors: string | null; expires_at: Date | null };
      expect((await state()).status).toBe("running");
      dying.proc.kill("SIGKILL");
      await dying.proc.exited;
      // Marking the runs and forgetting the lease are two statements of one heartbeat: wait for both.
      await until("the dead instance's run is marked and its lease forgotten", async () => {
        const s = await state();
        return s.status !== "running" && s.expires_at === null;
      });
      const after = await state();
      expect(JSON.parse(after.errors!).map((e: { code: string }) => e.code)).toEqual(["interrupted"]);
      // Its lease is gone with it; the live instance's stays.
      expect((await db`SELECT count(*)::int AS n FROM instances`)[0].n).toBe(1);
    } finally {
      dying.proc.kill("SIGKILL");
    }
  });
});
