import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { keyedClient, query, startTestServer } from "../helpers/server.ts";
import { answerOf, readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

describe("two servers on one SQLite file", () => {
  test("a retry or a resume that reaches the other server follows the run there: same answer, one run", async () => {
    const path = `/tmp/rq-shared-${crypto.randomUUID()}.db`;
    const gate = Promise.withResolvers<void>();
    const engA = scriptedEngine({ gate: gate.promise, deltas: ["a ", "b ", "c [S1]."] });
    const engB = scriptedEngine();
    const a = startTestServer(engA, { DATABASE_PATH: path });
    const b = startTestServer(engB, { DATABASE_PATH: path });
    try {
      const { key } = await keyedClient(a.url);
      const res = await query(a.url, key, { query: "q" }, { "idempotency-key": "k1" }, "/api/query/stream");
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
      const rid = res.headers.get("x-request-id")!;
      await engA.started;

      // Server B knows the run only from the store, still running: both wait for it there.
      const retried = query(b.url, key, { query: "q" }, { "idempotency-key": "k1" });
      const resumed = query(b.url, key, null, { "last-event-id": `${rid}:1` }, "/api/query/stream").then(readSse);
      setTimeout(() => gate.resolve(), 300);
      const env = (await (await retried).json()) as { request_id: string; answer: string };
      expect(env).toMatchObject({ request_id: rid, answer: "a b c [S1]." });
      const { events } = await resumed;
      expect(events.at(-1)!.data).toEqual(env);
      expect(answerOf(events)).toBe("a b c [S1].");
      expect([engA.calls, engB.calls]).toEqual([1, 0]);
      expect(a.sql.query("SELECT COUNT(*) AS n FROM runs").get()).toEqual({ n: 1 });
    } finally {
      await a.stop(100);
      await b.stop(100);
      for (const f of ["", "-wal", "-shm"]) rmSync(path + f, { force: true });
    }
  });
});
