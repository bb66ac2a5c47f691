import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SUPPORTED_AT } from "../../../src/contract/support.ts";
import { WITHHELD_LINE } from "../../../src/runs/withhold/withhold-answer.ts";
import { type ChatBody, type ChatServer, isPlannerCall, startChatServer } from "../../fixtures/chat-server.ts";
import { query } from "../../helpers/server.ts";
import { answerOf, readSse } from "../../helpers/sse.ts";
import { useLongTimeout } from "../../setup.ts";
import type { CollectionsServer } from "../collections-server.ts";
import { type Account, aliceAndBob, expectNoLeak, leaksIn } from "../privacy-fixtures.ts";

useLongTimeout();

/**
 * A model's answer as models write it — a cited sentence soft-wrapped over two lines, a list
 * item over two, a table — citing A's shared notes in B's earlier run, read after A made them
 * private (docs/decisions/0119-withholding-whole-blocks.md): the whole sentence, item and row go,
 * rows stay rows, and the counts are those of what is left, on every read.
 */

/** A's figures and words as the model put them on the first line of each wrapped claim: never shown once withheld. */
const PRIVATE = /12 cycles|teardown|ceramic separator/gi;

function idOf(body: ChatBody, title: string): string {
  const user = body.messages.find((m) => m.role === "user")!.content;
  return [...user.matchAll(/<source id="(S\d)" title="([^"]*)"/g)].find((m) => m[2] === title)?.[1] ?? "S9";
}

function answerFor(body: ChatBody): string {
  const q3 = idOf(body, "Q3 review: solid-state cells");
  const iface = idOf(body, "Interface resistance in solid electrolytes");
  const quorvex = idOf(body, "Quorvex teardown: what limits solid-state batteries");
  return [
    `Solid-state batteries are limited by dendrites that grow through the ceramic electrolyte at high current [${q3}].`,
    "",
    "The cells in the teardown shorted after 12 cycles once filaments crossed the ceramic separator",
    `of the solid-state batteries [${quorvex}].`,
    "",
    "- The teardown counted 12 cycles before filaments crossed the ceramic separator",
    `  of the solid-state batteries [${quorvex}].`,
    `- Voids form at the interface during stripping, so contact is lost [${iface}].`,
    "",
    "| Cells | Cycles before shorting |",
    "| --- | --- |",
    `| Q3 cells | 40 [${q3}] |`,
    `| Teardown cells | 12 cycles [${quorvex}] |`,
  ].join("\n");
}

const QUESTION = { query: "What limits solid-state batteries?" };
let t: CollectionsServer, chat: ChatServer, b: Account;
let jsonEnv: any, streamRid: string;

beforeAll(async () => {
  chat = startChatServer((body) =>
    isPlannerCall(body)
      ? { text: '{"kind":"mixed","language":"en","queries":["solid-state battery limits"]}' }
      : { text: answerFor(body) },
  );
  let quorvex: { id: number };
  ({ t, b, quorvex } = await aliceAndBob("shared", { OPENAI_BASE_URL: chat.openaiBase, LLM_MODEL: "writer-model" }));
  const json = await (await query(t.srv.url, b.key, QUESTION, { "idempotency-key": "w-json" })).text();
  const stream = await query(t.srv.url, b.key, QUESTION, { "idempotency-key": "w-stream" }, "/api/query/stream");
  streamRid = stream.headers.get("x-request-id")!;
  const streamed = await stream.text();
  jsonEnv = JSON.parse(json);
  // The precondition: while shared, the model's answer cites A's notes with A's figures in it.
  expect(jsonEnv.answer).toMatch(PRIVATE);
  expect(streamed).toMatch(PRIVATE);
  expect(leaksIn(json).length * leaksIn(streamed).length).toBeGreaterThan(0);
  expect(jsonEnv.verification.claims).toBeGreaterThan(2);
  expect(await t.store.corpus.updateCollection(quorvex.id, { visibility: "private" })).toBe("ok");
});
afterAll(async () => {
  await t?.stop();
  chat?.stop();
});

const timelineOf = async (rid: string) => await (await b.c.req("GET", `/api/console/runs/${rid}`)).text();

/** No word of A's: not the collection's names, not the figures the model wrote on a first line. */
function expectNothingOfA(raw: string, where: string): void {
  expectNoLeak(raw, where);
  expect({ where, figures: raw.match(PRIVATE) ?? [] }).toEqual({ where, figures: [] });
}

/** Counts of the answer as it now reads: its placeholders are no claims, and nothing of them is counted. */
function expectCountsOfWhatIsLeft(env: any): void {
  const supported = new Set(
    env.sources
      .flatMap((s: any) => (s.evidence ?? []).filter((e: any) => e.support >= SUPPORTED_AT))
      .map((e: any) => e.claim),
  );
  // Left: the dendrite sentence and the voids item.
  expect(env.verification).toEqual({
    claims: 2,
    cited: 2,
    supported: supported.size,
    unsupported: 0,
    coverage: Math.round((supported.size / 2) * 100) / 100,
    contradicted: 0,
    recited: 0,
  });
}

describe("a model's wrapped answer in B's earlier runs once A's notes are private", () => {
  test("JSON replay and timeline: the wrapped sentence and item go whole, the row stays a row, counts recomputed", async () => {
    const replay = await query(t.srv.url, b.key, QUESTION, { "idempotency-key": "w-json" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const raw = await replay.text();
    const timeline = await timelineOf(jsonEnv.request_id);
    expectNothingOfA(raw, "JSON replay");
    expectNothingOfA(timeline, "JSON run's timeline");
    const env = JSON.parse(raw);
    const lines = env.answer.split("\n");
    expect(lines.filter((l: string) => l.includes(WITHHELD_LINE)).length).toBe(3);
    // The table keeps its four rows, each of two cells.
    const rows = lines.filter((l: string) => l.startsWith("|"));
    expect(rows.length).toBe(4);
    for (const r of rows) expect(r.replace(/^\||\|$/g, "").split("|").length).toBe(2);
    expect(lines.indexOf(rows[0])).toBe(lines.indexOf(rows[3]) - 3);
    expect(env.answer).toContain("Voids form at the interface");
    expect(env.answer).toContain("| Q3 cells | 40 [");
    expectCountsOfWhatIsLeft(env);
    const tl = JSON.parse(timeline);
    expect(tl.verification).toEqual(env.verification);
    const verifying = tl.events.find((e: any) => e.type === "progress" && e.stage === "verifying");
    expect(verifying).toMatchObject(env.verification);
  });

  test("stream replay, Last-Event-ID and timeline: the deltas and the verifying counts alike", async () => {
    const replay = await (
      await query(t.srv.url, b.key, QUESTION, { "idempotency-key": "w-stream" }, "/api/query/stream")
    ).text();
    const resumed = await (
      await query(t.srv.url, b.key, null, { "last-event-id": `${streamRid}:0` }, "/api/query/stream")
    ).text();
    for (const [what, text] of [
      ["stream replay", replay],
      ["Last-Event-ID", resumed],
      ["timeline", await timelineOf(streamRid)],
    ])
      expectNothingOfA(text!, what!);
    const { events } = await readSse(new Response(replay));
    const final = events.at(-1)!.data;
    expectCountsOfWhatIsLeft(final);
    expect(
      answerOf(events)
        .split("\n")
        .filter((l) => l.startsWith("|")).length,
    ).toBe(4);
    const verifying = events.find((e) => e.event === "progress" && e.data.stage === "verifying")!;
    expect(verifying.data).toMatchObject(final.verification);
  });
});
