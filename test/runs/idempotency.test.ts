import { describe, expect, test } from "bun:test";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { keyedClient, query, startTestServer } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

interface Env {
  request_id: string;
  status: string;
  answer: string | null;
  errors: { code: string }[];
}

describe("Idempotency-Key", () => {
  test("a JSON client that gave up while its run ran retries with its key and gets the finished envelope; one run charged", async () => {
    // The run is held until the retry is on its way: the client gives up on an event, not a timer.
    const gate = Promise.withResolvers<void>();
    const eng = scriptedEngine({ gate: gate.promise });
    const s = startTestServer({ engine: eng });
    try {
      const { c, key } = await keyedClient(s.url);
      const h = { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": "job-1" };
      const giveUp = new AbortController();
      const first = fetch(`${s.url}/api/query`, {
        method: "POST",
        headers: h,
        body: JSON.stringify({ query: "q" }),
        signal: giveUp.signal,
      }).catch((e: Error) => e);
      await eng.started; // the run is under way
      giveUp.abort();
      expect(await first).toBeInstanceOf(Error);
      const retried = query(s.url, key, { query: "q" }, { "idempotency-key": "job-1" });
      gate.resolve();
      const res = await retried;
      expect(res.status).toBe(200);
      expect(res.headers.get("idempotent-replayed")).toBe("true");
      const env = (await res.json()) as Env;
      expect(env).toMatchObject({ status: "ok", answer: "Answer text [S1]." });
      expect(res.headers.get("x-request-id")).toBe(env.request_id);
      // And again, once it has ended: the same envelope, from the store.
      await s.deps.runs.idle();
      const again = (await (await query(s.url, key, { query: "q" }, { "idempotency-key": "job-1" })).json()) as Env;
      expect(again).toEqual(env);
      expect(eng.calls).toBe(1);
      expect(await c.used()).toBe(1);
    } finally {
      await s.stop(100);
    }
  });

  test("50 concurrent retries of one key start exactly one run, and all get it", async () => {
    const eng = scriptedEngine({ delayMs: 100 });
    const s = startTestServer({ engine: eng, env: { PLAN_RUNS_FREE: "1000" } });
    try {
      const { c, key } = await keyedClient(s.url);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          query(
            s.url,
            key,
            { query: "same question" },
            { "idempotency-key": "burst" },
            i % 2 ? "/api/query" : "/api/query/stream",
          ).then(async (r) =>
            r.headers.get("content-type")!.includes("event-stream")
              ? ((await readSse(r)).events.at(-1)!.data as Env)
              : ((await r.json()) as Env),
          ),
        ),
      );
      expect(new Set(answers.map((a) => a.request_id)).size).toBe(1);
      expect(answers.every((a) => a.status === "ok")).toBe(true);
      expect(eng.calls).toBe(1);
      expect(await c.used()).toBe(1);
    } finally {
      await s.stop(100);
    }
  });

  test("the same key with another question is 422 idempotency_key_reused; nothing starts or is charged", async () => {
    const eng = scriptedEngine();
    const s = startTestServer({ engine: eng });
    try {
      const { c, key } = await keyedClient(s.url);
      await (await query(s.url, key, { query: "first" }, { "idempotency-key": "k" })).json();
      for (const path of ["/api/query", "/api/query/stream"]) {
        const res = await query(s.url, key, { query: "second" }, { "idempotency-key": "k" }, path);
        expect(res.status).toBe(422);
        expect(((await res.json()) as Env).errors[0]!.code).toBe("idempotency_key_reused");
      }
      expect(eng.calls).toBe(1);
      expect(await c.used()).toBe(1);
    } finally {
      await s.stop(100);
    }
  });

  test("a stream with the key of a finished JSON run replays it whole; keys are per account", async () => {
    const eng = scriptedEngine();
    const s = startTestServer({ engine: eng });
    try {
      const a = await keyedClient(s.url);
      const b = await keyedClient(s.url);
      const env = (await (await query(s.url, a.key, { query: "q" }, { "idempotency-key": "shared" })).json()) as Env;
      await s.deps.runs.idle();
      const { events } = await readSse(
        await query(s.url, a.key, { query: "q" }, { "idempotency-key": "shared" }, "/api/query/stream"),
      );
      expect(events[0]!.data).toMatchObject({ message: "Run accepted", request_id: env.request_id });
      expect(events.at(-1)!.data).toEqual(env);
      // Another account's identical key is its own: a new run.
      const other = (await (await query(s.url, b.key, { query: "q" }, { "idempotency-key": "shared" })).json()) as Env;
      expect(other.request_id).not.toBe(env.request_id);
      expect(eng.calls).toBe(2);
    } finally {
      await s.stop(100);
    }
  });

  test("with the allowance used up the key still answers with its run; a new key is 429", async () => {
    const s = startTestServer({ engine: scriptedEngine(), env: { PLAN_RUNS_FREE: "1" } });
    try {
      const { c, key } = await keyedClient(s.url);
      const env = (await (await query(s.url, key, { query: "q" }, { "idempotency-key": "one" })).json()) as Env;
      const same = await query(s.url, key, { query: "q" }, { "idempotency-key": "one" });
      expect([same.status, ((await same.json()) as Env).request_id]).toEqual([200, env.request_id]);
      const fresh = await query(s.url, key, { query: "q" }, { "idempotency-key": "two" });
      expect(fresh.status).toBe(429);
      expect(await c.used()).toBe(1);
    } finally {
      await s.stop(100);
    }
  });

  test("after 24 hours a key is free again; a malformed key is 400", async () => {
    const eng = scriptedEngine();
    const s = startTestServer({ engine: eng });
    try {
      const { key } = await keyedClient(s.url);
      const first = (await (await query(s.url, key, { query: "q" }, { "idempotency-key": "day" })).json()) as Env;
      s.sql.run("UPDATE idempotency_keys SET created_at = ?", [new Date(Date.now() - 25 * 3600_000).toISOString()]);
      const later = (await (await query(s.url, key, { query: "q" }, { "idempotency-key": "day" })).json()) as Env;
      expect(later.request_id).not.toBe(first.request_id);
      for (const bad of ["x".repeat(256), "é-key", " "]) {
        const res = await query(s.url, key, { query: "q" }, { "idempotency-key": bad });
        expect([bad.length, res.status]).toEqual([bad.length, 400]);
      }
      expect(eng.calls).toBe(2);
    } finally {
      await s.stop(100);
    }
  });
});
