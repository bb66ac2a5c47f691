import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { keyedClient, query } from "../../helpers/server.ts";
import { readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";
import { type LeasedServer, spawnLeased, startLeased } from "./leased-server.ts";

useLongTimeout();

interface Row {
  status: string;
  errors: string | null;
  finished_at: string | null;
  instance_id: string | null;
}
const row = (sql: Database, id: string) =>
  sql.query("SELECT status, errors, finished_at, instance_id FROM runs WHERE id = ?").get(id) as Row;
const codes = (r: Row) => (JSON.parse(r.errors ?? "[]") as { code: string }[]).map((e) => e.code);
const lease = (sql: Database, id: string) =>
  sql.query("SELECT expires_at FROM instances WHERE id = ?").get(id) as { expires_at: string } | null;

/** Waits (bounded, never a fixed sleep) until `done` holds. */
async function until(what: string, done: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`still not: ${what}`);
    await Bun.sleep(50);
  }
}

let dir = "";
const servers: LeasedServer[] = [];
const path = () => join(dir, "rq.db");
const start = (...a: Parameters<typeof startLeased>) => {
  const s = startLeased(...a);
  servers.push(s);
  return s;
};
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop(100);
  rmSync(dir, { recursive: true, force: true });
});
const fresh = () => {
  dir = mkdtempSync(join(tmpdir(), "rq-lease-"));
};
const openRaw = () => new Database(path(), { strict: true });

/** A stream run started on `url`, resolved once it is accepted (recorded); `hangUp` leaves it running without a listener. */
async function startRun(url: string, key: string, idempotencyKey?: string) {
  const headers: Record<string, string> = idempotencyKey ? { "idempotency-key": idempotencyKey } : {};
  const res = await query(url, key, { query: "q" }, headers, "/api/query/stream");
  expect(res.status).toBe(200);
  return { id: res.headers.get("x-request-id")!, res, hangUp: () => res.body!.cancel() };
}

describe("instance leases on one SQLite file", () => {
  test("a server starting beside a live run leaves it running, through its heartbeats; the answer arrives ok", async () => {
    fresh();
    const gate = Promise.withResolvers<void>();
    const engA = scriptedEngine({ gate: gate.promise, deltas: ["a ", "b [S1]."] });
    const a = start(engA, path());
    const { key } = await keyedClient(a.url);
    const run = await startRun(a.url, key, "k1");
    await engA.started;

    const b = start(scriptedEngine(), path());
    expect(row(b.sql, run.id).status).toBe("running");
    // Two of B's heartbeats (each one a sweep) pass while A's run works.
    const aId = row(b.sql, run.id).instance_id!;
    const bId = (b.sql.query("SELECT id FROM instances WHERE id != ?").get(aId) as { id: string }).id;
    for (const n of [1, 2]) {
      const before = lease(b.sql, bId)!.expires_at;
      await until(`B's heartbeat ${n}`, () => lease(b.sql, bId)!.expires_at > before);
    }
    expect(row(b.sql, run.id).status).toBe("running");

    // A retry reaching B waits for A's run instead of finding it interrupted.
    const retried = query(b.url, key, { query: "q" }, { "idempotency-key": "k1" });
    gate.resolve();
    const env = (await (await retried).json()) as { request_id: string; status: string; answer: string };
    expect(env).toMatchObject({ request_id: run.id, status: "ok", answer: "a b [S1]." });
    const { events } = await readSse(run.res);
    expect(events.at(-1)).toMatchObject({ event: "final", data: { status: "ok" } });
    expect(row(b.sql, run.id).status).toBe("ok");
  });

  test("runs under no live lease are interrupted at start, and an expiring lease's later by the heartbeat", async () => {
    fresh();
    const seed = startLeased(scriptedEngine(), path());
    await seed.stop(100);
    const db = openRaw();
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3600_000).toISOString();
    db.run("INSERT INTO instances (id, started_at, expires_at) VALUES ('dead', ?1, ?1), ('live', ?1, ?2)", [
      past,
      future,
    ]);
    const insert = (id: string, instance: string | null) =>
      db.run(
        `INSERT INTO runs (id, origin, endpoint, query, period, status, created_at, instance_id)
        VALUES (?, 'api', '/api/query', 'q', '2026-11', 'running', ?, ?)`,
        [id, past, instance],
      );
    insert("old", null);
    insert("dead", "dead");
    insert("gone", "no-such-instance");
    insert("live", "live");
    db.close();

    const s = start(scriptedEngine(), path());
    for (const id of ["old", "dead", "gone"]) {
      expect(row(s.sql, id).status).toBe("error");
      expect(codes(row(s.sql, id))).toEqual(["interrupted"]);
    }
    expect(row(s.sql, "live").status).toBe("running");
    expect(lease(s.sql, "dead")).toBeNull();

    // The live instance stops renewing: once its lease is past, the running server marks its run.
    s.sql.run("UPDATE instances SET expires_at = ? WHERE id = 'live'", [new Date().toISOString()]);
    await until("the lapsed instance's run is marked", () => row(s.sql, "live").status !== "running");
    expect(codes(row(s.sql, "live"))).toEqual(["interrupted"]);
  });

  test("a killed instance's run is interrupted by a live one within the lease, never before it expired", async () => {
    fresh();
    const b = start(scriptedEngine(), path());
    const a = await spawnLeased(path());
    try {
      const { key } = await keyedClient(a.url);
      const run = await startRun(a.url, key);
      await run.hangUp();
      const aId = row(b.sql, run.id).instance_id!;
      expect(row(b.sql, run.id).status).toBe("running");
      const expires = lease(b.sql, aId)!.expires_at;
      a.proc.kill("SIGKILL");
      await a.proc.exited;
      await until("the dead instance's run is marked", () => row(b.sql, run.id).status !== "running");
      const r = row(b.sql, run.id);
      expect(codes(r)).toEqual(["interrupted"]);
      expect(r.finished_at! >= expires).toBe(true);
      expect(lease(b.sql, aId)).toBeNull();
    } finally {
      a.proc.kill("SIGKILL");
    }
  });

  test("a restarted instance marks its killed predecessor's runs once their lease expires", async () => {
    fresh();
    const a = await spawnLeased(path());
    const { key } = await keyedClient(a.url);
    const run = await startRun(a.url, key);
    await run.hangUp();
    // Read before the kill: a renewal in between only moves the expiry later.
    const db = openRaw();
    const expires = lease(db, row(db, run.id).instance_id!)!.expires_at;
    db.close();
    a.proc.kill("SIGKILL");
    await a.proc.exited;

    const restarted = start(scriptedEngine(), path());
    await until("the predecessor's run is marked", () => row(restarted.sql, run.id).status !== "running");
    const r = row(restarted.sql, run.id);
    expect(codes(r)).toEqual(["interrupted"]);
    expect(r.finished_at! >= expires).toBe(true);

    // A clean shutdown ends its own lease.
    await servers.splice(0)[0]!.stop(100);
    const after = openRaw();
    expect(after.query("SELECT COUNT(*) AS n FROM instances").get()).toEqual({ n: 0 });
    after.close();
  });

  test("an instance whose lease lapsed (a stall) says so and takes it again", async () => {
    fresh();
    const s = start(scriptedEngine(), path());
    const { id } = s.sql.query("SELECT id FROM instances").get() as { id: string };
    // What a live instance's sweep does to a lease it found expired.
    s.sql.run("DELETE FROM instances WHERE id = ?", [id]);
    await until("the lease is taken again", () => lease(s.sql, id) !== null);
    expect(s.logs.map((l) => JSON.parse(l))).toContainEqual(
      expect.objectContaining({ level: "warn", msg: "instance_lease_lapsed", instance: id }),
    );
  });
});
