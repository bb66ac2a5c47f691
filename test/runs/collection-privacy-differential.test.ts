import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";
import { query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";
import {
  BATTERY_NOTES,
  type CollectionsServer,
  type NoteDoc,
  noteInputs,
  startCollectionsServer,
} from "./collections-server.ts";
import {
  type Account,
  expectNoLeak,
  leaksIn,
  ownedCollection,
  QUORVEX_COLLECTION,
  QUORVEX_NOTES,
  signUp,
} from "./privacy-fixtures.ts";

useLongTimeout();

/**
 * Nothing of A's private collection shows in B's runs, not even as a count: B's stream and
 * timeline read the same, event for event and number for number, whether A's collection
 * exists or not. And beside the web: B's answer fuses the web and what B may read only.
 */

const BASE_EDITING: NoteDoc = {
  id: "lab/base-editing.md",
  title: "Our base editing protocol",
  text: "Base editing in our lab uses an adenine base editor delivered as mRNA. The base editor changes one DNA letter inside a window of about five nucleotides without cutting both strands.",
};
const QUORVEX_BASE_EDITING: NoteDoc = {
  id: "quorvex/base-editing.md",
  title: "Quorvex base editing protocol",
  text: "Quorvex base editing works with a zanthoxyl adenine base editor delivered as mRNA. The Quorvex base editor changes one DNA letter in a zanthoxyl window without cutting both strands.",
};

/** A server with the shared notes and B's own private collection, and A's private one when `withA`. */
async function team(withA: boolean, env: Record<string, string> = {}) {
  const t = await startCollectionsServer(env);
  const a = await signUp(t.srv.url, "alice@team.example");
  const b = await signUp(t.srv.url, "bob@team.example");
  await ownedCollection(t.store, null, "handbook", "shared", BATTERY_NOTES.slice(0, 2));
  await ownedCollection(t.store, b.id, "bob-notes", "private", BATTERY_NOTES.slice(2));
  if (withA) await ownedCollection(t.store, a.id, QUORVEX_COLLECTION, "private", QUORVEX_NOTES);
  return { t, a, b };
}

/** What differs between two runs of the same question by nature: ids, clocks and timestamps. */
const VOLATILE = new Set(["request_id", "latency_ms", "ms", "at_ms", "created_at", "finished_at"]);
function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, x]) => [k, stable(x)]),
  );
}

/** B's stream of the question and its Console timeline, with the volatile fields left out. */
async function bView(t: CollectionsServer, b: Account, question: string) {
  const res = await query(t.srv.url, b.key, { query: question }, {}, "/api/query/stream");
  const raw = await res.text();
  const timeline = await (await b.c.req("GET", `/api/console/runs/${res.headers.get("x-request-id")}`)).text();
  if (!leaksIn(question).length) expectNoLeak(raw + timeline, question);
  return { stream: stable((await readSse(new Response(raw))).events), timeline: stable(JSON.parse(timeline)) };
}

describe("B's runs beside A's private collection", () => {
  test("LOCAL_SEARCH=only: B's stream and timeline are the same with and without it", async () => {
    const [withA, without] = [await team(true, { LOCAL_SEARCH: "only" }), await team(false, { LOCAL_SEARCH: "only" })];
    try {
      // The second asks for A's own words: still nothing, not even "no results" where there were some.
      for (const question of ["What limits solid-state batteries?", "Quorvex zanthoxyl dendrites"]) {
        const [seen, baseline] = [await bView(withA.t, withA.b, question), await bView(without.t, without.b, question)];
        expect(seen).toEqual(baseline);
      }
      // A, on the same server, does find them: the sameness above is the filter's doing.
      const mine = await (
        await query(withA.t.srv.url, withA.a.key, { query: "What limits solid-state batteries?" })
      ).text();
      expect(leaksIn(mine).length).toBeGreaterThan(0);
    } finally {
      await withA.t.stop();
      await without.t.stop();
    }
  });
});

describe("with a web search provider", () => {
  let pages: PageServer, search: SearchFixtures;
  beforeAll(() => {
    pages = startPageServer();
    search = startSearchFixtures(pages.base);
  });
  afterAll(() => {
    pages.stop();
    search.stop();
  });

  test("B's answer fuses the web and the collections B may read, and nothing of A's", async () => {
    const { t, a, b } = await team(true, { SEARXNG_URL: search.urls.searxng, FETCH_ALLOW_PRIVATE: "true" });
    try {
      const put = async (owner: string | null, name: string, doc: NoteDoc) =>
        await t.store.corpus.put((await t.store.corpus.findCollection(owner, name))!.id, noteInputs([doc]));
      await put(null, "handbook", BASE_EDITING);
      await put(a.id, QUORVEX_COLLECTION, QUORVEX_BASE_EDITING);
      // Words every source holds: the extractive writer quotes only sources on the question, and the note never says "CRISPR".
      const question = { query: "How does base editing work?" };
      const json = await (await query(t.srv.url, b.key, question)).text();
      const stream = await (await query(t.srv.url, b.key, question, {}, "/api/query/stream")).text();
      const web = await (await b.c.req("POST", "/api/v1/research/stream", question)).text();
      for (const [what, raw] of [
        ["JSON", json],
        ["stream", stream],
        ["web stream", web],
      ])
        expectNoLeak(raw!, what!);
      const env = JSON.parse(json);
      expect(env.status).toBe("ok");
      expect(new Set(env.sources.map((s: any) => s.type))).toEqual(new Set(["web", "local"]));
      const collections = new Set(env.sources.flatMap((s: any) => (s.collection ? [s.collection] : [])));
      expect([...collections].every((c) => c === "handbook" || c === "bob-notes")).toBe(true);
      expectNoLeak(await (await b.c.req("GET", `/api/console/runs/${env.request_id}`)).text(), "timeline");
      const mine = JSON.parse(await (await query(t.srv.url, a.key, question)).text());
      expect(mine.sources.some((s: any) => s.collection === QUORVEX_COLLECTION)).toBe(true);
    } finally {
      await t.stop();
    }
  });
});
