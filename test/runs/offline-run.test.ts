import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fetchEventSource } from "@microsoft/fetch-event-source";
import { Value } from "@sinclair/typebox/value";
import { EnvelopeSchema, SourceSchema } from "../../src/contract/envelope.ts";
import { query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";
import { BATTERY_NOTES, type CollectionsServer, fillCollection, startCollectionsServer } from "./collections-server.ts";

useLongTimeout();

/**
 * The air-gapped box of README "Air-gapped: research your own documents": its SearXNG
 * unreachable, no academic database, no model. Runs answer from the collections, through
 * both query endpoints, citing local sources — and a local document is never fetched,
 * whatever URL it carries.
 */

const QUESTION = "What limits solid-state batteries?";
let t: CollectionsServer;
let pageHits = 0;
let counting: ReturnType<typeof Bun.serve>;
let intranetUrl: string;

beforeAll(async () => {
  // A document's own URL on a server that counts every request: the run must cite it without one.
  counting = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      pageHits++;
      return new Response("<html><body>fetched page</body></html>", { headers: { "content-type": "text/html" } });
    },
  });
  intranetUrl = `http://127.0.0.1:${counting.port}/wiki/ceramic-separators`;
  // FETCH_ALLOW_PRIVATE: the guard would let a fetch of the intranet URL through, so only the local path can keep it at 0.
  t = await startCollectionsServer({ FETCH_ALLOW_PRIVATE: "true" });
  await fillCollection(t.store, "notes", BATTERY_NOTES);
  await fillCollection(t.store, "wiki", [
    {
      id: "ceramic-separators",
      title: "Ceramic separators (team wiki)",
      url: intranetUrl,
      text: "Ceramic separators crack under stack pressure, which limits solid-state batteries in cars. Thinner separators crack sooner.",
    },
  ]);
});
afterAll(async () => {
  await t?.stop();
  counting?.stop(true);
});

/** Every marker of the answer names a listed source, and every source is a local one. */
function expectLocalCitations(env: any): void {
  expect(env.status).toBe("ok");
  expect(env.writer).toBe("extractive");
  expect(env.errors).toEqual([]);
  expect(Value.Check(EnvelopeSchema, env)).toBe(true);
  expect(env.sources.length).toBeGreaterThanOrEqual(2);
  const cited = new Set([...env.answer.matchAll(/\[S(\d)\]/g)].map((m: RegExpMatchArray) => `S${m[1]}`));
  expect([...cited].sort()).toEqual(env.sources.map((s: any) => s.id).sort());
  for (const s of env.sources) {
    expect(s).toMatchObject({ type: "local", provider: "local" });
    expect(["notes", "wiki"]).toContain(s.collection);
    expect(typeof s.doc_id).toBe("string");
    if (s.collection === "wiki") expect(s.url).toBe(intranetUrl);
    else expect(s.url).toBe(`local:notes/${s.doc_id.split("/").map(encodeURIComponent).join("/")}`);
  }
  // The garden rota shares no word with the question and is never cited.
  expect(env.sources.map((s: any) => s.doc_id)).not.toContain("notes/garden.md");
}

describe("an offline run answers from the collections", () => {
  test("POST /api/query: ok, extractive, local sources cited; a doc's own URL is cited, never fetched", async () => {
    const res = await query(t.srv.url, t.key, { query: QUESTION });
    expect(res.status).toBe(200);
    const env = (await res.json()) as any;
    expectLocalCitations(env);
    const ids = env.sources.map((s: any) => s.doc_id);
    expect(ids).toContain("reports/q3 review.md");
    expect(ids).toContain("ceramic-separators");
    // A doc_id with a space becomes one valid URI: the segment is percent-encoded.
    expect(env.sources.find((s: any) => s.doc_id === "reports/q3 review.md").url).toBe(
      "local:notes/reports/q3%20review.md",
    );
    expect(pageHits).toBe(0);
  });

  test("/api/query/stream read with eventsource-parser: local source events, local progress, the same final", async () => {
    const res = await query(t.srv.url, t.key, { query: QUESTION }, {}, "/api/query/stream");
    const { events } = await readSse(res);
    const final = events.at(-1)!;
    expect(final.event).toBe("final");
    expectLocalCitations(final.data);
    const sourceEvents = events.filter((e) => e.event === "source").map((e) => e.data);
    expect(sourceEvents.length).toBeGreaterThanOrEqual(final.data.sources.length);
    for (const s of sourceEvents) {
      expect(Value.Check(SourceSchema, s)).toBe(true);
      expect(s).toMatchObject({ type: "local", provider: "local" });
      expect(typeof s.collection).toBe("string");
      expect(typeof s.doc_id).toBe("string");
    }
    const messages = events.filter((e) => e.event === "progress").map((e) => e.data.message as string);
    expect(messages.some((m) => /^local: [1-9]\d* results$/.test(m))).toBe(true);
    expect(messages).toContain("notes: read from collection");
    expect(messages).toContain("wiki: read from collection");
    // The unreachable SearXNG is tried and reported, and costs the run nothing.
    expect(messages.some((m) => m.startsWith("searxng: failed"))).toBe(true);
    expect(pageHits).toBe(0);
  });

  test("/api/query/stream read with @microsoft/fetch-event-source: the same local sources", async () => {
    // It is written for browsers: it reads `window` and `document` (as in sse-clients.e2e.test.ts).
    const g = globalThis as Record<string, unknown>;
    g.window = globalThis;
    g.document = { hidden: false, addEventListener() {}, removeEventListener() {} };
    try {
      await streamWithFetchEventSource();
    } finally {
      delete g.window;
      delete g.document;
    }
  });
});

/** One run through fetchEventSource: the stream's sources are the envelope's, all local. */
async function streamWithFetchEventSource(): Promise<void> {
  const seen: { event: string; data: any }[] = [];
  await fetchEventSource(`${t.srv.url}/api/query/stream`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
    body: JSON.stringify({ query: QUESTION }),
    openWhenHidden: true,
    onmessage(ev) {
      seen.push({ event: ev.event, data: JSON.parse(ev.data) });
    },
    onclose() {
      if (seen.at(-1)?.event !== "final") throw new Error("the stream ended before its final event");
    },
    onerror(err) {
      throw err;
    },
  });
  const final = seen.at(-1)!;
  expect(final.event).toBe("final");
  expectLocalCitations(final.data);
  const streamed = seen.filter((e) => e.event === "source").map((e) => `${e.data.collection}/${e.data.doc_id}`);
  for (const s of final.data.sources) expect(streamed).toContain(`${s.collection}/${s.doc_id}`);
  expect(pageHits).toBe(0);
}
