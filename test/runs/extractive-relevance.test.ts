import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { EnvelopeSchema } from "../../src/contract/envelope.ts";
import { query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";
import {
  BATTERY_NOTES,
  type CollectionsServer,
  fillCollection,
  type NoteDoc,
  startCollectionsServer,
} from "./collections-server.ts";

useLongTimeout();

/**
 * Extractive answers quote only sources that answer the question
 * (docs/decisions/0139-extractive-answers-quote-only-relevant-sources.md): asked about
 * batteries over abstracts on other things, the answer cites nothing and says so
 * (docs/decisions/0140-an-answer-when-no-source-is-on-the-question.md); over the battery notes
 * beside them, only the notes on batteries are quoted.
 */

/**
 * Abstracts of the kind SciFact holds, as the search found them for a battery question: each
 * shares its common words ("limiting", "solid"), none its subject (the case that was seen).
 */
const ABSTRACTS: NoteDoc[] = [
  {
    id: "toxicity",
    title: "A phase I trial of an interleukin",
    text: "A total of 23 patients with solid tumours were enrolled; 19 were evaluable for first-cycle dose-limiting toxicity. Dose-limiting toxicity of grade 3 hypotension was associated with rapid trafficking of lymphocytes to skin.",
  },
  {
    id: "oct4",
    title: "Oct4 protein complexes in stem cells",
    text: "Limited information is available on Oct4-associated protein complexes and their protein-protein interactions. Oct4 is rarely expressed in solid tissues of the adult.",
  },
  {
    id: "lymphoma",
    title: "Outcomes of lymphomas in older patients",
    text: "Survival of patients with diffuse large B-cell lymphomas was limited by age. Recipients of solid organ transplants had a higher incidence of lymphomas.",
  },
];

const QUESTION = "What limits solid-state batteries?";
let offTopic: CollectionsServer;
let mixed: CollectionsServer;

beforeAll(async () => {
  offTopic = await startCollectionsServer();
  await fillCollection(offTopic.store, "abstracts", ABSTRACTS);
  mixed = await startCollectionsServer();
  await fillCollection(mixed.store, "abstracts", ABSTRACTS);
  await fillCollection(mixed.store, "notes", BATTERY_NOTES);
});
afterAll(async () => {
  await offTopic?.stop();
  await mixed?.stop();
});

describe("an extractive answer over documents that hold nothing on the question", () => {
  test("POST /api/query: ok, no source, no marker, a plain sentence saying so, nothing counted as backed", async () => {
    const env = (await (await query(offTopic.srv.url, offTopic.key, { query: QUESTION })).json()) as any;
    expect(Value.Check(EnvelopeSchema, env)).toBe(true);
    expect(env.status).toBe("ok");
    expect(env.writer).toBe("extractive");
    expect(env.sources).toEqual([]);
    expect(env.answer).toBe(
      "The sources found hold nothing on this question: none shares enough of its words to be quoted.",
    );
    expect(env.answer).not.toMatch(/\[S\d+\]/);
    // Every count the envelope's verification carries, those of the verdicts included.
    expect(env.verification).toEqual({
      claims: 0,
      cited: 0,
      supported: 0,
      unsupported: 0,
      coverage: 0,
      contradicted: 0,
      recited: 0,
    });
  });

  test("the stream says the same, and its verifying event says nothing was quoted", async () => {
    const st = await readSse(await query(offTopic.srv.url, offTopic.key, { query: QUESTION }, {}, "/api/query/stream"));
    const final = st.events.at(-1)!;
    expect(final.event).toBe("final");
    expect(final.data.sources).toEqual([]);
    const answer = st.events
      .filter((e) => e.event === "answer")
      .map((e) => e.data.delta)
      .join("");
    expect(answer).toBe(final.data.answer);
    const verifying = st.events.find((e) => e.event === "progress" && e.data.stage === "verifying")!;
    expect(verifying.data.message).toContain("none is quoted");
    expect(verifying.data.supported).toBe(0);
  });
});

describe("an extractive answer over relevant and unrelated documents", () => {
  test("only the notes on solid-state batteries are quoted: no abstract, no garden rota", async () => {
    const env = (await (await query(mixed.srv.url, mixed.key, { query: QUESTION })).json()) as any;
    expect(env.status).toBe("ok");
    const cited = env.sources.map((s: any) => s.doc_id).sort();
    expect(cited.length).toBeGreaterThanOrEqual(2);
    const battery = BATTERY_NOTES.filter((d) => d.id !== "notes/garden.md").map((d) => d.id);
    for (const id of cited) expect(battery).toContain(id);
    for (const s of env.sources) expect(env.answer).toContain(`[${s.id}]`);
  });

  test("the stream's verifying event counts quotes found in their sources, not claims backed", async () => {
    const st = await readSse(await query(mixed.srv.url, mixed.key, { query: QUESTION }, {}, "/api/query/stream"));
    const verifying = st.events.find((e) => e.event === "progress" && e.data.stage === "verifying")!;
    const v = st.events.at(-1)!.data.verification;
    expect(verifying.data.message).toBe(
      `Checked ${v.claims} quotes against the sources they were taken from: ${v.supported} found there, ${v.unsupported} uncited`,
    );
  });
});
