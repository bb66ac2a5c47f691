import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL, type Subprocess } from "bun";
import { MAIN, useCliFixtures } from "../cli/run-cli.ts";
import { isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
import { postgresTests } from "../helpers/postgres.ts";
import { type RestartablePostgres, restartablePostgres } from "../helpers/postgres-restartable.ts";
import { processLog } from "../helpers/process-log.ts";
import { keyedClient, query } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/**
 * `serve` stopped (SIGTERM) while PostgreSQL is away, holding an answer its caller already has
 * (README "PostgreSQL"): the process exits 0, and the outcome it held is written when the next
 * process starts on the same data folder, so a keyed retry gets that answer.
 */

const fx = useCliFixtures();
const writer = Promise.withResolvers<void>();
const chat = startChatServer((b) =>
  isPlannerCall(b)
    ? { text: '{"kind":"web","language":"en","queries":["base editing"]}' }
    : { text: "Base editors avoid double-strand breaks [S1].", until: writer.promise },
);
const running: Subprocess[] = [];
let pg: RestartablePostgres | undefined;
afterAll(async () => {
  writer.resolve();
  for (const p of running) p.kill("SIGKILL");
  chat.stop();
  await pg?.close();
});

/** `research-query serve` in `dir`, as an operator starts it; its address and its logs. */
async function serve(dir: string, DATABASE_URL: string) {
  const proc = Bun.spawn(["bun", MAIN, "serve"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH!,
      PORT: "0",
      DATABASE_URL,
      SEARXNG_URL: fx.search.urls.searxng,
      ACADEMIC_PROVIDERS: "none",
      FETCH_ALLOW_PRIVATE: "true",
      OPENAI_BASE_URL: chat.openaiBase,
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  running.push(proc);
  const log = processLog(proc.stdout);
  const out = await log.until('"msg":"listening"');
  const line = out.split("\n").find((l) => l.includes('"msg":"listening"'))!;
  return { url: (JSON.parse(line) as { url: string }).url, proc, log };
}

/** Waits (bounded, never a fixed sleep) until `done` holds; a failing check counts as not yet. */
async function until(what: string, done: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done().catch(() => false))) {
    if (Date.now() > end) throw new Error(`still not: ${what}`);
    await Bun.sleep(100);
  }
}

describe.skipIf(!postgresTests)("SIGTERM during a PostgreSQL outage", () => {
  test("the held answer outlives the process: exit 0, written at the next start, a keyed retry gets it", async () => {
    pg = await restartablePostgres();
    const url = await pg.database();
    const dir = mkdtempSync(join(tmpdir(), "rq-outage-stop-"));
    const first = await serve(dir, url);
    const { key } = await keyedClient(first.url);
    const asked = query(first.url, key, { query: "How do base editors work?" }, { "idempotency-key": "k-stop" });
    // The writer's call is out: the run ends only once the database has gone.
    await chat.untilRequests(2);
    await pg.stop();
    writer.resolve();
    const res = await asked;
    expect(res.status).toBe(200);
    const env = (await res.json()) as { request_id: string; status: string; answer: string };
    expect(env).toMatchObject({ status: "ok", answer: "Base editors avoid double-strand breaks [S1]." });

    first.proc.kill("SIGTERM");
    expect(await first.proc.exited).toBe(0);
    // Warnings and errors are on stdout with every other line.
    const stopLog = await first.log.rest();
    expect(stopLog).toContain('"msg":"run_outcome_held"');
    expect(stopLog).not.toContain('"msg":"run_outcome_lost"');

    await pg.start();
    const db = new SQL(url, { max: 1 });
    const second = await serve(dir, url);
    const row = async () =>
      (await db`SELECT status, answer FROM runs WHERE id = ${env.request_id}`)[0] as { status: string; answer: string };
    await until("the held outcome is written", async () => (await row()).status === "ok");
    expect(await row()).toEqual({ status: "ok", answer: env.answer });
    const timeline = await db`SELECT type FROM run_events WHERE run_id = ${env.request_id} ORDER BY id`;
    expect(timeline.map((e: { type: string }) => e.type)).toContain("final");

    const again = await query(second.url, key, { query: "How do base editors work?" }, { "idempotency-key": "k-stop" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toMatchObject({ request_id: env.request_id, status: "ok", answer: env.answer });
    // The writer was asked once: the retry's answer is the held one, not a new run's.
    expect(chat.requests).toHaveLength(2);
    // Written once: nothing is left for a later start to write again.
    expect(readdirSync(join(dir, "data", "held-outcomes"))).toEqual([]);
    await db.close();
  }, 120_000);
});
