import { describe, expect, test } from "bun:test";
import { MAX_QUERY_TERMS } from "../../../src/corpus/search/query-cap.ts";
import { createRanker } from "../../../src/corpus/search/ranker.ts";
import { corpusQuery, RANKING } from "../../../src/corpus/search/search-corpus.ts";
import { openSqliteStore } from "../../../src/store/sqlite/open.ts";
import { putInto } from "../collections-helpers.ts";
import { textDoc as doc } from "./search-helpers.ts";

/**
 * A long question is searched by its most specific terms (README "Searching collections"):
 * the postings read for it are those of at most MAX_QUERY_TERMS terms, the rarest.
 */
describe("query terms are capped", () => {
  test("a question of 80 words reads the postings of its 32 rarest, and still finds the document they name", async () => {
    const store = openSqliteStore(":memory:");
    // Word i is in 80 − i documents: w0 the commonest, w79 in one document only.
    const words = Array.from(
      { length: 80 },
      (_, i) => `word${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}x`,
    );
    await putInto(
      store,
      "c",
      Array.from({ length: 80 }, (_, d) => doc(`d${d}`, `doc ${d}`, words.filter((_, i) => d < 80 - i).join(" "))),
    );
    const asked: string[][] = [];
    const index = store.corpusIndex;
    const ranker = createRanker({
      ...index,
      collections: () => index.collections(),
      analyse: (t) => index.analyse(t),
      documentFrequencies: (t, c) => index.documentFrequencies(t, c),
      lengths: (c) => index.lengths(c),
      termCounts: (d) => index.termCounts(d),
      documents: (ids) => index.documents(ids),
      postings: (terms, c) => {
        asked.push(terms);
        return index.postings(terms, c);
      },
    });
    const hits = await ranker.rank(corpusQuery(words.join(" "), { ...RANKING, feedback: null }), null, 5);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.length).toBe(MAX_QUERY_TERMS);
    // The rarest 32: the last words, each in fewer documents than any word left out.
    const stems = await index.analyse(words.slice(80 - MAX_QUERY_TERMS).join(" "));
    expect(new Set(asked[0])).toEqual(new Set(stems));
    expect(hits[0]!.docId).toBe("d0");
    store.close();
  });
});
