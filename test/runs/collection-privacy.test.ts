import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { EnvelopeSchema } from "../../src/contract/envelope.ts";
import { query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { undeclaredFields } from "../helpers/undeclared-fields.ts";
import { useLongTimeout } from "../setup.ts";
import { type CollectionsServer, startCollectionsServer } from "./collections-server.ts";
import {
  type Account,
  aliceAndBob,
  expectNoLeak,
  leaksIn,
  ownedCollection,
  QUORVEX_COLLECTION,
  QUORVEX_NOTES,
  signUp,
} from "./privacy-fixtures.ts";

useLongTimeout();

/**
 * Account B never sees anything of account A's private collection (README "Collections for a
 * team"), on every way B has to a run and to its record: checked on the bytes each answer
 * carries. With LOCAL_SEARCH=only the collections are the only source, so a leak would be cited.
 */

const QUESTION = { query: "What limits solid-state batteries?" };
let t: CollectionsServer, a: Account, b: Account;

beforeAll(async () => {
  ({ t, a, b } = await aliceAndBob());
});
afterAll(() => t.stop());

/** The envelope a JSON answer or a stream's final event carries. */
async function envelopeOf(raw: string, stream: boolean): Promise<any> {
  if (!stream) return JSON.parse(raw);
  const { events } = await readSse(new Response(raw));
  return events.at(-1)!.data;
}

/** B's four ways to run: the key's JSON and stream, the web client's JSON and stream (session cookie). */
const PATHS: [string, boolean, (who: Account, h?: Record<string, string>) => Promise<Response>][] = [
  ["/api/query", false, (w, h) => query(t.srv.url, w.key, QUESTION, h)],
  ["/api/query/stream", true, (w, h) => query(t.srv.url, w.key, QUESTION, h, "/api/query/stream")],
  ["/api/v1/research", false, (w, h) => w.c.req("POST", "/api/v1/research", QUESTION, h)],
  ["/api/v1/research/stream", true, (w, h) => w.c.req("POST", "/api/v1/research/stream", QUESTION, h)],
];

describe("account B and account A's private collection", () => {
  test("B's runs on every path, their Console timelines and their replays carry nothing of it", async () => {
    for (const [path, stream, run] of PATHS) {
      const res = await run(b, { "idempotency-key": `b${path}` });
      const raw = await res.text();
      expectNoLeak(raw, path);
      const env = await envelopeOf(raw, stream);
      expect(Value.Check(EnvelopeSchema, env)).toBe(true);
      expect(undeclaredFields(EnvelopeSchema, env)).toEqual([]);
      expect(env.status).toBe("ok");
      expect(env.sources.map((s: any) => [s.collection, s.owner])).toEqual(env.sources.map(() => ["handbook", null]));

      const timeline = await (await b.c.req("GET", `/api/console/runs/${env.request_id}`)).text();
      expectNoLeak(timeline, `timeline of ${path}`);
      expect(JSON.parse(timeline).sources).toEqual(env.sources);

      // The same Idempotency-Key answers with the same run, replayed from its record.
      const again = await run(b, { "idempotency-key": `b${path}` });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      const replayed = await again.text();
      expectNoLeak(replayed, `replay of ${path}`);
      expect((await envelopeOf(replayed, stream)).sources).toEqual(env.sources);
      if (stream) {
        const resumed = await run(b, { "last-event-id": `${env.request_id}:1` });
        expect(resumed.status).toBe(200);
        expectNoLeak(await resumed.text(), `Last-Event-ID on ${path}`);
      }
    }
  });

  test("A's own runs cite it, by collection, doc id and owner; the record keeps its id to itself", async () => {
    const res = await query(t.srv.url, a.key, QUESTION);
    const raw = await res.text();
    expect(leaksIn(raw)).not.toEqual([]);
    expect(raw).not.toContain("collection_id");
    const env = JSON.parse(raw);
    const mine = env.sources.filter((s: any) => s.collection === QUORVEX_COLLECTION);
    expect(mine.length).toBeGreaterThan(0);
    for (const s of mine)
      expect(s).toMatchObject({ type: "local", owner: a.email, doc_id: expect.stringMatching(/^quorvex\//) });
    const timeline = await (await a.c.req("GET", `/api/console/runs/${env.request_id}`)).text();
    expect(timeline).not.toContain("collection_id");
    expect(JSON.parse(timeline).sources).toEqual(env.sources);
  });

  test("B naming A's run gets 404 on the Console and on Last-Event-ID, with nothing of it", async () => {
    const rid = (await (await query(t.srv.url, a.key, QUESTION)).json()).request_id;
    const timeline = await b.c.req("GET", `/api/console/runs/${rid}`);
    expect(timeline.status).toBe(404);
    expectNoLeak(await timeline.text(), "Console, A's run");
    const resumed = await query(t.srv.url, b.key, null, { "last-event-id": `${rid}:1` }, "/api/query/stream");
    expect(resumed.status).toBe(404);
    expectNoLeak(await resumed.text(), "Last-Event-ID, A's run");
  });

  test("a collection A shares reaches B's runs, with A as its owner", async () => {
    await ownedCollection(t.store, a.id, "cathode-shared", "shared", [
      {
        id: "cathodes.md",
        title: "Cathode cracking in solid-state batteries",
        text: "Cathode particles crack as they swell and shrink, which limits solid-state batteries because contact with the solid electrolyte is lost.",
      },
    ]);
    const env = await (
      await query(t.srv.url, b.key, { query: "Why do cathode particles crack in solid-state batteries?" })
    ).json();
    expect(env.sources.some((s: any) => s.collection === "cathode-shared" && s.owner === a.email)).toBe(true);
    expectNoLeak(JSON.stringify(env), "B's run with A's shared collection");
  });

  test("B with nothing readable and LOCAL_SEARCH=only: search_unavailable, not a word or count of A's", async () => {
    const lone = await startCollectionsServer({ LOCAL_SEARCH: "only" });
    try {
      const owner = await signUp(lone.srv.url, "alice@team.example");
      const other = await signUp(lone.srv.url, "bob@team.example");
      await ownedCollection(lone.store, owner.id, QUORVEX_COLLECTION, "private", QUORVEX_NOTES);
      const res = await query(lone.srv.url, other.key, QUESTION, {}, "/api/query/stream");
      const raw = await res.text();
      expectNoLeak(raw, "lone stream");
      // Refused before acceptance, like quota_exceeded: the envelope as the body, nothing charged.
      expect(res.status).toBe(503);
      const env = JSON.parse(raw);
      expect(env.errors.map((e: any) => e.code)).toEqual(["search_unavailable"]);
      expect(env.errors[0].message).not.toMatch(/\d/);
      expect((await (await query(lone.srv.url, owner.key, QUESTION)).json()).status).toBe("ok");
    } finally {
      await lone.stop();
    }
  });
});
