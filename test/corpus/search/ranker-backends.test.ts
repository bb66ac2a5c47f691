import { afterAll, describe, expect, test } from "bun:test";
import type { CorpusQuery } from "../../../src/corpus/search/ranking.ts";
import { RANKING, searcherOf } from "../../../src/corpus/search/search-corpus.ts";
import { postgresTests } from "../../helpers/postgres.ts";
import { useLongTimeout } from "../../setup.ts";
import { type AnyStore, backends } from "../../store/backends.ts";
import { putInto } from "../collections-helpers.ts";
import { textDoc as doc } from "./search-helpers.ts";

useLongTimeout();

// Words both backends' analysis keeps as they are (no stem that one of them would cut differently).
const TOPICS = ["tide", "moon", "orbit", "coral", "reef", "glacier", "basalt", "plankton", "comet", "delta"];
const word = (i: number) => TOPICS[i % TOPICS.length]!;
const notes = Array.from({ length: 30 }, (_, i) =>
  doc(`n${i}`, `${word(i)} ${word(i * 3 + 1)}`, `${word(i * 7 + 2)} ${word(i + 4)} ${word(i * 5)} sea level ${i}`),
);
const papers = Array.from({ length: 20 }, (_, i) =>
  doc(`p${i}`, `${word(i * 2)} survey`, `${word(i + 3)} ${word(i * 9 + 5)} ${word(i)} ${word(i)} field data ${i}`),
);

const QUERIES: [string[], string[] | null][] = [
  [["tide"], null],
  [["moon", "orbit"], null],
  [["coral", "reef", "survey"], ["papers"]],
  [["glacier", "basalt"], ["notes"]],
  [
    ["comet", "delta", "plankton"],
    ["notes", "papers"],
  ],
];

describe.skipIf(!postgresTests)("one ranker over both backends", () => {
  const opened: AnyStore[] = [];
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  test("the same hits in the same order, with and without feedback, over all or some collections", async () => {
    const results: string[][][] = [];
    for (const backend of backends) {
      const s = await backend.open();
      opened.push(s);
      await putInto(s, "notes", notes);
      await putInto(s, "papers", papers);
      const byName = new Map((await s.corpus.collections("all")).map((c) => [c.id, c.name]));
      const out: string[][] = [];
      for (const feedback of [RANKING.feedback, null])
        for (const [words, collections] of QUERIES) {
          const q: CorpusQuery = { words, ranking: { ...RANKING, feedback } };
          const ids =
            collections &&
            (await s.corpus.readable("all")).filter((id) => byName.get(id) && collections.includes(byName.get(id)!));
          const hits = await searcherOf(s).rank(q, ids, 10);
          out.push(hits.map((h) => `${h.collection}/${h.docId}`));
        }
      results.push(out);
    }
    expect(results[0]!.every((hits) => hits.length > 0)).toBe(true);
    expect(results[1]).toEqual(results[0]!);
  });
});
