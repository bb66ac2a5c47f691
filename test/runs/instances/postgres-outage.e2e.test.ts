import { afterEach, describe, expect, test } from "bun:test";
import { createServer, type Socket } from "node:net";
import { SQL } from "bun";
import type { Engine, EngineResult } from "../../../src/research/types.ts";
import type { LeaseTimings } from "../../../src/runs/instances/instance-lease.ts";
import type { RunningServer } from "../../../src/server/server.ts";
import { openPostgresStore } from "../../../src/store/postgres/open.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { freshDatabase, postgresTests } from "../../helpers/postgres.ts";
import { type RestartablePostgres, restartablePostgres } from "../../helpers/postgres-restartable.ts";
import { sampleSource, scriptedEngine } from "../../helpers/scripted-engine.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";
import { DYING, LIVE } from "./leased-server.ts";

useLongTimeout();
/** Each test initialises, starts and restarts a server of its own, on a shared 2-core machine. */
const OUTAGE_TEST_MS = 90_000;

/**
 * PostgreSQL goes away while runs finish (README "PostgreSQL"): the answers their callers got
 * are written once it is back, retries get them, and new calls hear 503 meanwhile. The outage
 * is a fast shutdown of a server of the test's own, restarted on the same port.
 */

const servers: RunningServer[] = [];
const pgs: RestartablePostgres[] = [];
// Each test's servers and databases end with it: a server left beside the next test keeps its
// heartbeats and pool going, and a connection of its that drops there fails that test.
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop(100);
  for (const p of pgs.splice(0)) await p.close();
});

async function start(engine: Engine, url: string, lease: LeaseTimings = LIVE): Promise<RunningServer> {
  const s = startTestServer({
    env: { DATABASE_URL: url, LOG_LEVEL: "warn" },
    engine,
    store: await openPostgresStore(url, { max: 4 }),
    logger: createLogger("silent"),
    lease,
  });
  servers.push(s);
  return s;
}

/** Waits (bounded, never a fixed sleep) until `done` holds; a failing check counts as not yet. */
async function until(what: string, done: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done().catch(() => false))) {
    if (Date.now() > end) throw new Error(`still not: ${what}`);
    await Bun.sleep(50);
  }
}

async function outage(): Promise<{ pg: RestartablePostgres; url: string; db: SQL }> {
  const pg = await restartablePostgres();
  pgs.push(pg);
  const url = await pg.database();
  return { pg, url, db: new SQL(url, { max: 1 }) };
}

/**
 * One instance cut off from the database while the others reach it (a partition): a TCP
 * proxy in front of the server that, while `down`, drops every connection it holds and
 * every new one.
 */
async function partition(url: string): Promise<{ url: string; down(): void; up(): void; close(): void }> {
  const target = new URL(url);
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = Bun.connect({
      hostname: target.hostname,
      port: Number(target.port),
      socket: {
        data: (_s, d) => void client.write(d),
        close: () => void client.destroy(),
        error: () => void client.destroy(),
      },
    });
    open.add(client);
    client.on("error", () => {});
    client.on("close", () => {
      open.delete(client);
      void upstream.then((u) => u.end());
    });
    client.on("data", (d) => void upstream.then((u) => u.write(d)));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const via = new URL(url);
  via.port = String((server.address() as { port: number }).port);
  return {
    url: via.toString(),
    down() {
      cut = true;
      for (const c of open) c.destroy();
    },
    up() {
      cut = false;
    },
    close: () => server.close(),
  };
}

describe.skipIf(!postgresTests)("a PostgreSQL outage", () => {
  test(
    "a run that ends while the database is down: its answer is written once it is back, and a retry gets it",
    async () => {
      const { pg, url, db } = await outage();
      const gate = Promise.withResolvers<void>();
      const engine = scriptedEngine({ gate: gate.promise, deltas: ["kept ", "answer [S1]."] });
      const a = await start(engine, url);
      const { key } = await keyedClient(a.url);
      const asked = query(a.url, key, { query: "q" }, { "idempotency-key": "k-outage" });
      await engine.started;
      await pg.stop();
      gate.resolve();
      // The run ends in the outage: its caller hears its answer, as from a run that was stored.
      const res = await asked;
      expect(res.status).toBe(200);
      const env = (await res.json()) as { request_id: string; status: string; answer: string };
      expect(env).toMatchObject({ status: "ok", answer: "kept answer [S1]." });

      // Meanwhile a new call is told to come back, and health says why.
      const refused = await query(a.url, key, { query: "another" });
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await refused.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("service_unavailable");
      const down = await fetch(`${a.url}/healthz`);
      expect(down.status).toBe(200);
      expect(await down.json()).toMatchObject({ status: "ok", database: "unreachable" });

      await pg.start();
      const row = async () =>
        (await db`SELECT status, answer FROM runs WHERE id = ${env.request_id}`)[0] as {
          status: string;
          answer: string;
        };
      await until("the run's outcome is written", async () => (await row()).status !== "running");
      expect(await row()).toEqual({ status: "ok", answer: "kept answer [S1]." });
      // Its timeline too: a replay from the store tells the same answer.
      const timeline = await db`SELECT type FROM run_events WHERE run_id = ${env.request_id} ORDER BY id`;
      expect(timeline.map((e: { type: string }) => e.type)).toContain("final");
      expect((await db`SELECT count(*)::int AS n FROM run_stream`)[0].n).toBe(0);

      // A retry with the same key gets the answer, here and on another instance.
      const b = await start(scriptedEngine(), url);
      for (const s of [a, b]) {
        const again = await query(s.url, key, { query: "q" }, { "idempotency-key": "k-outage" });
        expect(again.status).toBe(200);
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(await again.json()).toMatchObject({
          request_id: env.request_id,
          status: "ok",
          answer: "kept answer [S1].",
        });
      }
      expect(engine.calls).toBe(1);
      expect(await (await fetch(`${a.url}/healthz`)).json()).toMatchObject({ status: "ok", database: "ok" });
      await db.close();
    },
    OUTAGE_TEST_MS,
  );

  test(
    "events sent while the database is down reach a follower on another instance, in order, once it is back",
    async () => {
      const { pg, url, db } = await outage();
      const inOutage = Promise.withResolvers<void>();
      const toEnd = Promise.withResolvers<void>();
      const started = Promise.withResolvers<void>();
      // Two holds: one event group is sent during the outage, the rest after the database is back.
      const engine: Engine = {
        async run(_q, ctx): Promise<EngineResult> {
          ctx.emit({ type: "progress", stage: "planning", message: "planning", queries: ["q"] });
          started.resolve();
          await inOutage.promise;
          ctx.emit({ type: "progress", stage: "searching", message: "searching" });
          ctx.emit({ type: "source", source: sampleSource });
          ctx.emit({ type: "progress", stage: "writing", message: "writing" });
          ctx.emit({ type: "answer", delta: "during " });
          await toEnd.promise;
          ctx.emit({ type: "answer", delta: "after [S1]." });
          return {
            answer: "during after [S1].",
            sources: [sampleSource],
            writer: "extractive",
            tokens_in: 1,
            tokens_out: 1,
          };
        },
      };
      const [a, b] = [await start(engine, url), await start(scriptedEngine(), url)];
      const { key } = await keyedClient(a.url);
      const res = await query(a.url, key, { query: "q" }, {}, "/api/query/stream");
      const rid = res.headers.get("x-request-id")!;
      const onA = readSse(res);
      await started.promise;
      // B follows from the first event: it reads the others from the database.
      const heardDuring = Promise.withResolvers<void>();
      // Its answer's headers come once B has found the run and follows it.
      const followed = await query(b.url, key, null, { "last-event-id": `${rid}:1` }, "/api/query/stream");
      expect(followed.status).toBe(200);
      const onB = readSse(followed, (e) => {
        if (e.event === "answer" && e.data.delta === "during ") heardDuring.resolve();
      });
      await pg.stop();
      inOutage.resolve();
      await pg.start();
      // Nothing new is sent until B has heard what was sent in the outage: those events were held and written.
      await heardDuring.promise;
      toEnd.resolve();
      const [fromA, fromB] = await Promise.all([onA, onB]);
      expect(fromB.events).toEqual(fromA.events.slice(1));
      expect(answerOf(fromB.events)).toBe("during after [S1].");
      expect((await db`SELECT status FROM runs WHERE id = ${rid}`)[0].status).toBe("ok");
      await db.close();
    },
    OUTAGE_TEST_MS,
  );

  test(
    "an instance cut off past its lease: another marks its run interrupted, and the real outcome replaces the mark",
    async () => {
      const url = await freshDatabase();
      const cutOff = await partition(url);
      const db = new SQL(url, { max: 1 });
      const gate = Promise.withResolvers<void>();
      const engine = scriptedEngine({ gate: gate.promise, deltas: ["late ", "answer [S1]."] });
      // A renews through the proxy with a short lease; B reaches the database directly.
      const a = await start(engine, cutOff.url, DYING);
      const b = await start(scriptedEngine(), url);
      const { key } = await keyedClient(a.url);
      const asked = query(a.url, key, { query: "q" }, { "idempotency-key": "k-lease" });
      await engine.started;
      cutOff.down();
      gate.resolve();
      const env = (await (await asked).json()) as { request_id: string; status: string; answer: string };
      expect(env).toMatchObject({ status: "ok", answer: "late answer [S1]." });
      const row = async () =>
        (await db`SELECT status, answer, errors FROM runs WHERE id = ${env.request_id}`)[0] as {
          status: string;
          answer: string | null;
          errors: string;
        };
      // A's lease runs out on the database's clock; B judges the run dead.
      await until("B marks A's run interrupted", async () => (await row()).status === "error");
      expect(JSON.parse((await row()).errors)[0].code).toBe("interrupted");
      cutOff.up();
      await until("A's outcome replaces the mark", async () => (await row()).status === "ok");
      expect(await row()).toMatchObject({ status: "ok", answer: "late answer [S1]." });
      expect(JSON.parse((await row()).errors)).toEqual([]);
      const again = await query(b.url, key, { query: "q" }, { "idempotency-key": "k-lease" });
      expect(await again.json()).toMatchObject({
        request_id: env.request_id,
        status: "ok",
        answer: "late answer [S1].",
      });
      cutOff.close();
      await db.close();
    },
    OUTAGE_TEST_MS,
  );
});
