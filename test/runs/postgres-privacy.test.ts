import { afterAll, describe, expect, test } from "bun:test";
import { buildEngine } from "../../src/research/build-engine.ts";
import { withheldSource } from "../../src/runs/withhold/withhold.ts";
import type { RunningServer } from "../../src/server/server.ts";
import { openPostgresStore } from "../../src/store/postgres/open.ts";
import { createLogger } from "../../src/util/logger.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";
import { Client, query, startTestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { BATTERY_NOTES, closedPort, FAST } from "./collections-server.ts";
import { LIVE } from "./instances/leased-server.ts";
import {
  type Account,
  expectNoLeak,
  leaksIn,
  ownedCollection,
  QUORVEX_COLLECTION,
  QUORVEX_NOTES,
  signUp,
} from "./privacy-fixtures.ts";

useLongTimeout();

/**
 * The privacy of runs on PostgreSQL, with two instances on one database (README "PostgreSQL"):
 * whichever instance runs or replays B's calls, nothing of A's private collection reaches B;
 * a visibility change made through one instance holds at the other's next run and next read.
 */

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop(100);
});

/** An instance with the real engine (extractive writer, the collections only) on the database at `url`. */
async function instance(url: string): Promise<RunningServer> {
  const s = startTestServer({
    env: {
      DATABASE_URL: url,
      PLAN_RUNS_FREE: "100",
      ACADEMIC_PROVIDERS: "none",
      SEARXNG_URL: `http://127.0.0.1:${closedPort()}`,
      LOCAL_SEARCH: "only",
      LOG_LEVEL: "silent",
    },
    store: await openPostgresStore(url, { max: 4 }),
    logger: createLogger("silent"),
    lease: LIVE,
    engine: (config, logger, store) => buildEngine(config, logger, undefined, FAST, store),
  });
  servers.push(s);
  return s;
}

const QUESTION = { query: "What limits solid-state batteries?" };

/** `who`'s Console timeline of run `id`, asked of instance `s` with the session made on either. */
async function timelineOn(s: RunningServer, who: Account, id: string): Promise<string> {
  const c = Object.assign(new Client(s.url), { cookie: who.c.cookie });
  return await (await c.req("GET", `/api/console/runs/${id}`)).text();
}

/** B's run on `s` by the key (JSON) and by the session (stream), and both timelines on `other`: all as text. */
async function bEverywhere(s: RunningServer, other: RunningServer, b: Account): Promise<{ raw: string; env: any }> {
  const raw = await (await query(s.url, b.key, QUESTION)).text();
  const env = JSON.parse(raw);
  const streamed = await Object.assign(new Client(s.url), { cookie: b.c.cookie }).req(
    "POST",
    "/api/v1/research/stream",
    QUESTION,
  );
  const rid = streamed.headers.get("x-request-id");
  const texts = [raw, await streamed.text()];
  for (const id of [env.request_id, rid]) texts.push(await timelineOn(other, b, id!));
  return { raw: texts.join("\n"), env };
}

describe.skipIf(!postgresTests)("runs and A's private collection, two instances on one PostgreSQL database", () => {
  test("B never sees it on either; A does; sharing and unsharing through one holds on the other", async () => {
    const url = await freshDatabase();
    const [one, two] = [await instance(url), await instance(url)];
    const a = await signUp(one.url, "alice@team.example");
    const b = await signUp(two.url, "bob@team.example");
    const store = one.deps.store;
    await ownedCollection(store, null, "handbook", "shared", BATTERY_NOTES);
    const quorvex = await ownedCollection(store, a.id, QUORVEX_COLLECTION, "private", QUORVEX_NOTES);

    for (const [s, other] of [
      [two, one],
      [one, two],
    ] as const) {
      const { raw, env } = await bEverywhere(s, other, b);
      expectNoLeak(raw, `B on ${s.url}`);
      expect(env.sources.map((x: any) => x.collection)).toEqual(env.sources.map(() => "handbook"));
      const mine = await (await query(s.url, a.key, QUESTION)).text();
      expect(leaksIn(mine).length).toBeGreaterThan(0);
    }

    // Shared through instance 1: instance 2's next run of B cites it.
    await store.corpus.updateCollection(quorvex.id, { visibility: "shared" });
    const idem = { "idempotency-key": "pg-shared" };
    const whileShared = await (await query(two.url, b.key, QUESTION, idem)).json();
    const cited = whileShared.sources.filter((x: any) => x.collection === QUORVEX_COLLECTION);
    expect(cited.length).toBeGreaterThan(0);

    // Private again through instance 1: instance 2's next run, and every read of that earlier run, withhold it.
    await store.corpus.updateCollection(quorvex.id, { visibility: "private" });
    const { raw } = await bEverywhere(two, one, b);
    expectNoLeak(raw, "B's next run after unsharing");
    for (const s of [one, two]) {
      const replay = await (await query(s.url, b.key, QUESTION, idem)).text();
      const timeline = await timelineOn(s, b, whileShared.request_id);
      expectNoLeak(replay + timeline, `B's earlier run read on ${s.url}`);
      expect(JSON.parse(replay).sources.filter((x: any) => x.withheld)).toEqual(
        cited.map((x: any) => withheldSource(x.id)),
      );
    }
  });
});
