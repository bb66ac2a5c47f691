import { expect } from "bun:test";
import type { Engine } from "../../../src/research/types.ts";
import { type ScriptedEngine, scriptedEngine } from "../../helpers/scripted-engine.ts";
import { keyedClient, query } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";

/**
 * Two instances on one database (SQLite file or PostgreSQL): a run starts on A and is held;
 * an idempotent retry and a Last-Event-ID resume reach B, which knows the run only from the
 * database. Both must follow A's run to the same answer, and no second run may start.
 * `start` makes an instance with the given engine; the caller checks its database's run count.
 */
export async function followedOnTheOtherInstance(start: (engine: Engine) => Promise<{ url: string }>): Promise<void> {
  const gate = Promise.withResolvers<void>();
  const engA: ScriptedEngine = scriptedEngine({ gate: gate.promise, deltas: ["a ", "b ", "c [S1]."] });
  const engB = scriptedEngine();
  const a = await start(engA);
  const b = await start(engB);
  const { key } = await keyedClient(a.url);
  const res = await query(a.url, key, { query: "q" }, { "idempotency-key": "k1" }, "/api/query/stream");
  const reader = res.body!.getReader();
  await reader.read();
  await reader.cancel();
  const rid = res.headers.get("x-request-id")!;
  await engA.started;

  // B knows the run only from the database, still running: both wait for it there.
  const retried = query(b.url, key, { query: "q" }, { "idempotency-key": "k1" });
  const resumed = query(b.url, key, null, { "last-event-id": `${rid}:1` }, "/api/query/stream").then(readSse);
  setTimeout(() => gate.resolve(), 300);
  const env = (await (await retried).json()) as { request_id: string; answer: string };
  expect(env).toMatchObject({ request_id: rid, answer: "a b c [S1]." });
  const { events } = await resumed;
  expect(events.at(-1)!.data).toEqual(env);
  expect(answerOf(events)).toBe("a b c [S1].");
  expect([engA.calls, engB.calls]).toEqual([1, 0]);
}
