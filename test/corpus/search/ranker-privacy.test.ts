import { afterAll, describe, expect, test } from "bun:test";
import { createRanker } from "../../../src/corpus/search/ranker.ts";
import { corpusQuery, searchCorpus } from "../../../src/corpus/search/search-corpus.ts";
import type { CorpusIndex } from "../../../src/store/corpus-index.ts";
import type { CorpusDocumentInput } from "../../../src/store/types.ts";
import { useLongTimeout } from "../../setup.ts";
import { type AnyStore, backends } from "../../store/backends.ts";
import { textDoc as doc } from "./search-helpers.ts";

useLongTimeout();

/**
 * The ranking side channel (README "Collections for a team"): B's hits, their order and their
 * scores are the same whether or not A's private collection exists, feedback included — so
 * nobody can tell from how their own documents rank which words another's documents hold.
 */

// B's documents and A's share words, so A's would move every statistic they were let into:
// topic words for the first pass, rarer ones (each in a few of B's documents) for feedback to add.
const TOPICS = ["tide", "moon", "orbit", "coral", "reef", "glacier", "basalt", "plankton", "comet", "delta"];
const RARE = ["anchor", "beacon", "cobalt", "dune", "ember", "fjord", "granite", "harbor", "iris", "jasper"]
  .flatMap((w) => [w, `${w}s`, `${w}ing`])
  .slice(0, 30);
const word = (i: number) => TOPICS[i % TOPICS.length]!;
const rare = (i: number) => RARE[i % RARE.length]!;
const shared = Array.from({ length: 60 }, (_, i) =>
  doc(`s${i}`, `${word(i)} notes`, `${word(i * 3 + 1)} ${word(i + 2)} ${rare(i)} ${rare(i * 7 + 3)} sea level`),
);
// A's: long, thick with the words of B's top documents (lengths, document frequencies, feedback's terms).
const hidden = Array.from({ length: 40 }, (_, i) =>
  doc(
    `a${i}`,
    `${word(i * 2)} ${word(i + 5)}`,
    `${word(i)} ${word(i)} ${word(i * 3)} ${rare(i)} ${rare(i + 1)} ${rare(i + 2)} sea survey ${"reef ".repeat(i % 7)}`,
  ),
);

const QUERIES = [
  "tide",
  "moon orbit",
  "coral reef sea",
  "glacier basalt level",
  "comet delta plankton survey",
  // More terms than are searched (MAX_QUERY_TERMS): which are kept is B's rarest, whatever A holds.
  [...TOPICS, ...RARE, "sea", "level", "survey", "notes"].join(" "),
];

describe("B's ranking beside A's private collection", () => {
  const opened: AnyStore[] = [];
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  for (const backend of backends)
    test(`${backend.name}: the same hits, order and scores, with feedback, with or without it`, async () => {
      /** A store with the shared collection, and A's private one when `withA`: B's readable ids and all ids. */
      const open = async (withA: boolean) => {
        const s = await backend.open();
        opened.push(s);
        const put = async (name: string, ownerId: string | null, docs: CorpusDocumentInput[]) => {
          const c = (await s.corpus.createCollection({ name, ownerId, visibility: ownerId ? "private" : "shared" }))!;
          await s.corpus.put(c.id, docs);
        };
        if (withA) {
          await s.accounts.insert({
            id: "a",
            email: "a@x.org",
            passwordHash: null,
            plan: "free",
            createdAt: "2026-11-01T00:00:00Z",
            emailStatus: "unproven",
          });
          await put("a-private", "a", hidden);
        }
        await put("handbook", null, shared);
        return { s, b: await s.corpus.readable({ accounts: ["b"] }) };
      };
      const [withA, without] = [await open(true), await open(false)];
      const hits = async (o: { s: AnyStore }, collections: number[] | null, q: string) =>
        (await searchCorpus(o.s, q, { collections, limit: 20 })).map((h) => [h.docId, h.score]);
      let moved = 0;
      for (const q of QUERIES) {
        const seen = await hits(withA, withA.b, q);
        expect(seen.length).toBeGreaterThan(0);
        expect(seen).toEqual(await hits(without, without.b, q));
        // Let into the statistics, A's documents would move B's scores: the sameness above is the filter's.
        const everything = (await hits(withA, null, q)).filter(([id]) => String(id).startsWith("s"));
        if (JSON.stringify(everything) !== JSON.stringify(seen)) moved++;
      }
      expect(moved).toBe(QUERIES.length);
    });
});

/**
 * B's search, and what it reads: the index is asked for nothing of A's collection, whether A
 * searched first or not — so neither how long B's search takes nor what it finds remembered
 * depends on the words A's collection holds.
 */
describe("what B's search reads beside A's private collection", () => {
  for (const backend of backends)
    test(`${backend.name}: lengths, postings and frequencies of B's collections only, A's search before it or not`, async () => {
      const s = await backend.open();
      try {
        await s.accounts.insert({
          id: "a",
          email: "a@x.org",
          passwordHash: null,
          plan: "free",
          createdAt: "2026-11-01T00:00:00Z",
          emailStatus: "unproven",
        });
        const aCol = (await s.corpus.createCollection({ name: "a-private", ownerId: "a", visibility: "private" }))!;
        await s.corpus.put(aCol.id, hidden);
        const bCol = (await s.corpus.createCollection({ name: "handbook", ownerId: null, visibility: "shared" }))!;
        await s.corpus.put(bCol.id, shared);
        const b = await s.corpus.readable({ accounts: ["b"] });
        expect(b).toEqual([bCol.id]);

        /** The collections each read of the index was asked for. */
        const asked: number[][] = [];
        const ix: CorpusIndex = s.corpusIndex;
        const note = <T>(ids: number[], read: T): T => {
          asked.push(ids);
          return read;
        };
        const counting: CorpusIndex = {
          collections: () => ix.collections(),
          analyse: (t) => ix.analyse(t),
          lengths: (ids) => note(ids, ix.lengths(ids)),
          termCounts: (d) => ix.termCounts(d),
          documents: (d) => ix.documents(d),
          postings: (t, ids) => note(ids, ix.postings(t, ids)),
          documentFrequencies: (t, ids) => note(ids, ix.documentFrequencies(t, ids)),
        };
        const ranker = createRanker(counting);
        const hits = async (cs: number[], q: string) =>
          (await ranker.rank(corpusQuery(q), cs, 20)).map((h) => [h.docId, h.score]);
        const others = () =>
          asked
            .splice(0)
            .flat()
            .filter((id) => id !== bCol.id);
        for (const q of QUERIES) {
          const first = await hits(b, q);
          expect(others()).toEqual([]);
          // A searches its own collection for the same words; B's next search reads and finds the same.
          await hits([aCol.id], q);
          asked.length = 0;
          expect(await hits(b, q)).toEqual(first);
          expect(others()).toEqual([]);
        }
        // And A's own searches did read A's collection (the count above is not empty by construction).
        asked.length = 0;
        await hits([aCol.id], "harbor lighthouse");
        expect(asked.flat()).toContain(aCol.id);
      } finally {
        await s.close();
      }
    });
});
