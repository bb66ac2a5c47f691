import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { EnvelopeSchema } from "../../../src/contract/envelope.ts";
import { markersIn } from "../../../src/research/write/citations.ts";
import { withheldSource } from "../../../src/runs/withhold/withhold.ts";
import { WITHHELD_LINE } from "../../../src/runs/withhold/withhold-answer.ts";
import type { CollectionSummary } from "../../../src/store/types.ts";
import { query } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";
import { undeclaredFields } from "../../helpers/undeclared-fields.ts";
import { useLongTimeout } from "../../setup.ts";
import type { CollectionsServer } from "../collections-server.ts";
import {
  type Account,
  aliceAndBob,
  expectNoLeak,
  leaksIn,
  ownedCollection,
  QUORVEX_COLLECTION,
} from "../privacy-fixtures.ts";

useLongTimeout();

/**
 * Earlier runs of B that cited A's collection while it was shared, read after A made it
 * private, renamed it, or removed it (docs/decisions/0086-earlier-runs-withhold-what-their-reader-cannot-read.md):
 * every read withholds its documents, judged by the collection's id at read time.
 */

const QUESTION = { query: "What limits solid-state batteries?" };
let t: CollectionsServer, a: Account, b: Account, quorvex: CollectionSummary;
/** B's runs made while A's collection was shared: JSON (Idempotency-Key "k-json") and stream ("k-stream"). */
let jsonEnv: any, streamRid: string, streamIds: string[], mineEnv: any;

beforeAll(async () => {
  ({ t, a, b, quorvex } = await aliceAndBob("shared"));
  const json = await (await query(t.srv.url, b.key, QUESTION, { "idempotency-key": "k-json" })).text();
  const stream = await query(t.srv.url, b.key, QUESTION, { "idempotency-key": "k-stream" }, "/api/query/stream");
  streamRid = stream.headers.get("x-request-id")!;
  const streamed = await stream.text();
  // The precondition: while shared, B's runs cite A's documents (so what follows can fail).
  expect(leaksIn(json).length * leaksIn(streamed).length).toBeGreaterThan(0);
  jsonEnv = JSON.parse(json);
  // And the claim check quoted A's documents to B then (so their quotes' withholding can fail).
  expect(leaksIn(JSON.stringify(jsonEnv.sources.map((s: any) => s.evidence))).length).toBeGreaterThan(0);
  streamIds = [...streamed.matchAll(/^id: \S+:(\d+)$/gm)].map((m) => m[1]!);
  mineEnv = await (await query(t.srv.url, a.key, QUESTION)).json();
});
afterAll(() => t.stop());

const timelineOf = async (who: Account, rid: string) =>
  await (await who.c.req("GET", `/api/console/runs/${rid}`)).text();

/** B's JSON run as every read shows it now: the Console's timeline and the Idempotency-Key's replay agree. */
async function bRunNow(): Promise<{ raw: string; env: any }> {
  const timeline = await timelineOf(b, jsonEnv.request_id);
  const replay = await query(t.srv.url, b.key, QUESTION, { "idempotency-key": "k-json" });
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  const raw = await replay.text();
  const env = JSON.parse(raw);
  const tl = JSON.parse(timeline);
  expect([tl.sources, tl.answer]).toEqual([env.sources, env.answer]);
  return { raw: raw + timeline, env };
}

/** An envelope as the schema declares it, whose citations hold together: every marker names a listed source, every listed source is cited. */
function expectCitationsWhole(env: any): void {
  expect(Value.Check(EnvelopeSchema, env)).toBe(true);
  expect(undeclaredFields(EnvelopeSchema, env)).toEqual([]);
  expect(new Set(markersIn(env.answer))).toEqual(new Set(env.sources.map((s: any) => s.id)));
}

describe("B's earlier runs once A's collection is no longer B's to read", () => {
  test("made private: sources, answer lines and the stream are withheld on every read; the shared notes stay", async () => {
    expect(await t.store.corpus.updateCollection(quorvex.id, { visibility: "private" })).toBe("ok");
    const { raw, env } = await bRunNow();
    expectNoLeak(raw, "B's JSON run, timeline and replay");
    expect(env.sources).toEqual(
      jsonEnv.sources.map((s: any) => (s.collection === QUORVEX_COLLECTION ? withheldSource(s.id) : s)),
    );
    expect(env.answer).toContain(WITHHELD_LINE);
    expect(env.answer).toContain("Here is what the sources say:");
    expectCitationsWhole(env);
    // Claims you can check: a withheld document's quotes are its words, withheld with it; the
    // counts are those of the claims left (docs/decisions/0119-withholding-whole-blocks.md).
    for (const s of env.sources.filter((x: any) => x.withheld)) expect(s.evidence).toBeUndefined();
    expectNoLeak(JSON.stringify(env.sources.map((s: any) => s.evidence)), "the sources' quotes");
    expect(env.verification.claims).toBeLessThan(jsonEnv.verification.claims);
    expect(env.verification.supported).toBeLessThan(jsonEnv.verification.supported);

    const replay = await (
      await query(t.srv.url, b.key, QUESTION, { "idempotency-key": "k-stream" }, "/api/query/stream")
    ).text();
    const resumed = await (
      await query(t.srv.url, b.key, null, { "last-event-id": `${streamRid}:0` }, "/api/query/stream")
    ).text();
    for (const [what, text] of [
      ["stream replay", replay],
      ["Last-Event-ID", resumed],
      ["timeline", await timelineOf(b, streamRid)],
    ])
      expectNoLeak(text!, what!);
    const { events } = await readSse(new Response(replay));
    const final = events.at(-1)!.data;
    expectCitationsWhole(final);
    expect(answerOf(events)).toContain(WITHHELD_LINE);
    expect(events.filter((e) => e.event === "source" && e.data.withheld).length).toBeGreaterThan(0);
    // The ids it was first sent with; an answer delta left empty is skipped, never renumbered.
    const ids = [...replay.matchAll(/^id: \S+:(\d+)$/gm)].map((m) => m[1]!);
    expect(streamIds).toEqual(expect.arrayContaining(ids));
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((x, y) => x - y));
  });

  test("A, who owns it, still reads it in A's own earlier run", async () => {
    const timeline = await timelineOf(a, mineEnv.request_id);
    expect(JSON.parse(timeline).sources).toEqual(mineEnv.sources);
    expect(leaksIn(timeline).length).toBeGreaterThan(0);
  });

  test("shared again: the same run shows them again, as cited then", async () => {
    await t.store.corpus.updateCollection(quorvex.id, { visibility: "shared" });
    const { env } = await bRunNow();
    expect([env.sources, env.answer]).toEqual([jsonEnv.sources, jsonEnv.answer]);
  });

  test("made private and renamed, a new shared collection taking its old name: still withheld", async () => {
    await t.store.corpus.updateCollection(quorvex.id, { visibility: "private", name: "old-lab" });
    await ownedCollection(t.store, a.id, QUORVEX_COLLECTION, "shared", [
      { id: "other.md", title: "Other notes", text: "Nothing about batteries here, only the lab's opening hours." },
    ]);
    expectNoLeak((await bRunNow()).raw, "after a rename");
  });

  test("removed: withheld for everyone, its owner included", async () => {
    await t.store.corpus.updateCollection(quorvex.id, { visibility: "shared" });
    expect(await t.store.corpus.removeCollection(quorvex.id)).not.toBeNull();
    expectNoLeak((await bRunNow()).raw, "B, removed");
    const mine = JSON.parse(await timelineOf(a, mineEnv.request_id));
    expect(mine.sources.filter((s: any) => s.withheld).length).toBe(
      mineEnv.sources.filter((s: any) => s.collection === QUORVEX_COLLECTION).length,
    );
  });
});
