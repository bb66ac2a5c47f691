import { describe, expect, test } from "bun:test";
import { createParser } from "eventsource-parser";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { keyedClient, query, startTestServer } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/** Reads events (with ids) off a stream until `stopAfter` of them have come, then drops the connection. */
async function readEvents(res: Response, stopAfter = Infinity) {
  const events: { id: string; event: string; data: any }[] = [];
  let retry: number | undefined;
  const parser = createParser({
    onEvent: (m) => {
      events.push({ id: m.id ?? "", event: m.event ?? "message", data: JSON.parse(m.data) });
    },
    onRetry: (ms) => {
      retry = ms;
    },
  });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  while (events.length < stopAfter) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(dec.decode(value, { stream: true }));
  }
  await reader.cancel().catch(() => {});
  return { events, retry };
}

describe("resumable streams (Last-Event-ID)", () => {
  test("every event has <request_id>:<n> from 1; the stream starts with a retry hint; keep-alives are lone comment lines", async () => {
    // The run's answer waits until a keep-alive has arrived: an event, not a race of timers.
    const heard = Promise.withResolvers<void>();
    const s = startTestServer({ engine: scriptedEngine({ gate: heard.promise }), keepAliveMs: 20 });
    try {
      const { key } = await keyedClient(s.url);
      const res = await query(s.url, key, { query: "q" }, {}, "/api/query/stream");
      let raw = "";
      const dec = new TextDecoder();
      for await (const chunk of res.body!) {
        raw += dec.decode(chunk, { stream: true });
        if (raw.includes(": keep-alive\n")) heard.resolve();
      }
      expect(raw.startsWith("retry: 1000\nid: ")).toBe(true);
      expect(raw).toContain(": keep-alive\n");
      // A blank line after a comment would be an empty message to @microsoft/fetch-event-source.
      expect(raw).not.toContain(": keep-alive\n\n");
      const { events } = await readEvents(new Response(raw));
      const rid = res.headers.get("x-request-id");
      expect(events.map((e) => e.id)).toEqual(events.map((_, i) => `${rid}:${i + 1}`));
      expect(events.at(-1)!.event).toBe("final");
    } finally {
      await s.stop(100);
    }
  });

  test("a dropped stream resumes from memory while the run lives: the rest, then live, nothing charged", async () => {
    const gate = Promise.withResolvers<void>();
    const eng = scriptedEngine({ gate: gate.promise, deltas: ["one ", "two ", "three [S1]."], deltaMs: 20 });
    const s = startTestServer({ engine: eng });
    try {
      const { c, key } = await keyedClient(s.url);
      const first = await readEvents(await query(s.url, key, { query: "q" }, {}, "/api/query/stream"), 2);
      expect(first.retry).toBe(1000);
      const last = first.events.at(-1)!.id;
      setTimeout(() => gate.resolve(), 50);
      const res = await query(s.url, key, { query: "q" }, { "last-event-id": last }, "/api/query/stream");
      expect(res.status).toBe(200);
      const rest = await readEvents(res);
      const all = [...first.events, ...rest.events];
      const rid = last.split(":")[0];
      expect(all.map((e) => e.id)).toEqual(all.map((_, i) => `${rid}:${i + 1}`));
      expect(answerOf(all)).toBe("one two three [S1].");
      expect(all.at(-1)!.data.answer).toBe("one two three [S1].");
      expect(eng.calls).toBe(1);
      expect(await c.used()).toBe(1);
    } finally {
      await s.stop(100);
    }
  });

  test("after the run ends the stored timeline replays the same events and ids, answer deltas included; after final, 204", async () => {
    const s = startTestServer({ engine: scriptedEngine({ deltas: ["a ", "b ", "c [S1]."] }) });
    try {
      const { c, key } = await keyedClient(s.url);
      const live = await readEvents(await query(s.url, key, { query: "q" }, {}, "/api/query/stream"));
      await s.deps.runs.idle();
      for (const cut of [0, 3, live.events.length - 2]) {
        const last = live.events[cut]!.id;
        const res = await query(s.url, key, { query: "q" }, { "last-event-id": last }, "/api/query/stream");
        const replay = await readEvents(res);
        expect(replay.events).toEqual(live.events.slice(cut + 1));
      }
      const res = await query(s.url, key, null, { "last-event-id": live.events.at(-1)!.id }, "/api/query/stream");
      expect(res.status).toBe(204);
      expect(await c.used()).toBe(1);
    } finally {
      await s.stop(100);
    }
  });

  test("a Last-Event-ID of another account's run, of no run, or malformed is refused; nothing starts or is charged", async () => {
    const eng = scriptedEngine();
    const s = startTestServer({ engine: eng });
    try {
      const { key: keyA } = await keyedClient(s.url);
      const { c: b, key: keyB } = await keyedClient(s.url);
      const { events } = await readSse(await query(s.url, keyA, { query: "q" }, {}, "/api/query/stream"));
      const rid = events.at(-1)!.data.request_id as string;
      await s.deps.runs.idle();
      for (const [id, status, code] of [
        [`${rid}:2`, 404, "run_not_found"],
        [`${crypto.randomUUID()}:1`, 404, "run_not_found"],
        ["not-an-id", 400, "invalid_request"],
      ] as const) {
        const res = await query(s.url, keyB, { query: "q" }, { "last-event-id": id }, "/api/query/stream");
        expect([id, res.status]).toEqual([id, status]);
        const env = (await res.json()) as { errors: { code: string }[] };
        expect(env.errors[0]!.code).toBe(code);
      }
      expect(eng.calls).toBe(1);
      expect(await b.used()).toBe(0);
    } finally {
      await s.stop(100);
    }
  });

  test("a key refusal's stream tells reconnecting clients to wait an hour", async () => {
    const s = startTestServer({ engine: scriptedEngine() });
    try {
      const res = await query(s.url, "rq-nope", { query: "q" }, {}, "/api/query/stream");
      const { events, retry } = await readEvents(res);
      expect(events.map((e) => e.event)).toEqual(["error", "final"]);
      expect(retry).toBe(3_600_000);
      expect(events.map((e) => e.id)).toEqual([1, 2].map((n) => `${res.headers.get("x-request-id")}:${n}`));
    } finally {
      await s.stop(100);
    }
  });
});
