import { afterAll, describe, expect, test } from "bun:test";
import type { CorpusQuery } from "../../src/corpus/search/ranking.ts";
import { RANKING, searcherOf } from "../../src/corpus/search/search-corpus.ts";
import type { CorpusDocumentInput } from "../../src/store/types.ts";
import { docsOf, putInto } from "../corpus/collections-helpers.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

/** A search of the collections as every entry point makes it: the one ranker over the store's index port. */
const search = async (s: AnyStore, q: CorpusQuery, o: { limit: number; collection?: string }) =>
  searcherOf(s).rank(
    q,
    o.collection === undefined ? null : [(await s.corpus.findCollection(null, o.collection))?.id ?? -1],
    o.limit,
  );
const all = async (s: AnyStore) => s.corpus.readable("all");
const idOf = async (s: AnyStore, name: string) => (await s.corpus.findCollection(null, name))?.id ?? -1;

const doc = (docId: string, passages: string[], hash = passages.join("|")): CorpusDocumentInput => ({
  docId,
  title: `Title ${docId}`,
  url: null,
  path: `${docId}.txt`,
  format: "text",
  contentHash: hash,
  truncated: false,
  passages,
});

/** Documents, passages, and passages the full-text index finds by their words: the backend's own SQL. */
const INDEXED = {
  sqlite:
    "SELECT count(*) AS n FROM corpus_passages_fts WHERE corpus_passages_fts MATCH 'tide OR moon OR sleep OR orbit'",
  postgres:
    "SELECT count(*)::int AS n FROM corpus_passages WHERE search @@ to_tsquery('rq_english', 'tide | moon | sleep | orbit')",
};

for (const backend of backends) {
  const opened: AnyStore[] = [];
  const open = async () => {
    const s = await backend.open();
    opened.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of opened) await s.close();
  });
  const counts = async (s: AnyStore) => ({
    docs: await backend.count(s, "SELECT count(*) AS n FROM corpus_documents"),
    passages: await backend.count(s, "SELECT count(*) AS n FROM corpus_passages"),
    indexed: await backend.count(s, INDEXED[backend.name]),
  });

  describe(`the corpus table on ${backend.name}`, async () => {
    test("an unchanged document is left alone, a changed one replaces its passages and index rows", async () => {
      const s = await open();
      expect(await s.corpus.hasDocuments(await all(s))).toBe(false);
      expect(
        await putInto(s, "notes", [doc("a", ["the moon pulls the tide", "orbit period"]), doc("b", ["cats sleep"])]),
      ).toEqual(["added", "added"]);
      expect(await putInto(s, "notes", [doc("a", ["the moon pulls the tide", "orbit period"])])).toEqual(["unchanged"]);
      expect(await putInto(s, "notes", [doc("a", ["the tide turns"])])).toEqual(["replaced"]);
      expect(await counts(s)).toEqual({ docs: 2, passages: 2, indexed: 2 });
      // The old version's words are gone from both indexes.
      expect(await search(s, { words: ["moon"], ranking: RANKING }, { limit: 5 })).toEqual([]);
      expect((await search(s, { words: ["tide"], ranking: RANKING }, { limit: 5 })).map((h) => h.docId)).toEqual(["a"]);
      expect(await s.corpus.hasDocuments(await all(s))).toBe(true);
    });

    test("collections are listed with their counts and searched apart", async () => {
      const s = await open();
      await putInto(s, "notes", [doc("a", ["tide tables"]), doc("b", ["moon"])]);
      await putInto(s, "papers", [doc("a", ["tide models"])]);
      const list = await s.corpus.collections("all");
      expect(list.map((c) => [c.name, c.documents, c.passages])).toEqual([
        ["notes", 2, 2],
        ["papers", 1, 1],
      ]);
      expect(
        (await search(s, { words: ["tide"], ranking: RANKING }, { limit: 5 })).map((h) => h.collection).sort(),
      ).toEqual(["notes", "papers"]);
      expect(
        (await search(s, { words: ["tide"], ranking: RANKING }, { limit: 5, collection: "papers" })).map(
          (h) => h.collection,
        ),
      ).toEqual(["papers"]);
      expect((await docsOf(s, "notes")).map((d) => d.docId)).toEqual(["a", "b"]);
    });

    test("removal takes documents, passages and index rows with it", async () => {
      const s = await open();
      await putInto(s, "notes", [doc("a", ["tide", "moon"]), doc("b", ["sleep"]), doc("c", ["orbit"])]);
      expect(await s.corpus.removeDocuments(await idOf(s, "notes"), ["b", "missing"])).toBe(1);
      expect(await counts(s)).toEqual({ docs: 2, passages: 3, indexed: 3 });
      expect(await s.corpus.removeCollection(await idOf(s, "nope"))).toBeNull();
      expect(await s.corpus.removeCollection(await idOf(s, "notes"))).toBe(2);
      expect(await counts(s)).toEqual({ docs: 0, passages: 0, indexed: 0 });
      expect(await search(s, { words: ["tide"], ranking: RANKING }, { limit: 5 })).toEqual([]);
      expect(await s.corpus.hasDocuments(await all(s))).toBe(false);
    });

    test("best passages come in document order; a document's first ones when none match", async () => {
      const s = await open();
      await putInto(s, "notes", [doc("a", ["intro text", "tide one", "middle", "tide two"])]);
      const id = (await docsOf(s, "notes"))[0]!.id;
      expect((await s.corpus.bestPassages(id, ["tide"], 2)).map((p) => p.seq)).toEqual([1, 3]);
      expect(await s.corpus.bestPassages(id, ["zebra"], 1)).toEqual([{ seq: 0, text: "intro text" }]);
    });

    test("ranking: a word in the title counts more, a repeated word more than a passing one, feedback finds related documents", async () => {
      const s = await open();
      const titled = (docId: string, title: string, text: string) => ({ ...doc(docId, [text]), title });
      await putInto(s, "notes", [
        titled("in-title", "Tides", "notes on the coast and the moon"),
        titled("in-body", "Coastal notes", "tides are mentioned here once among many other words of the text"),
        titled("repeated", "Sea", "tides tides tides: tides rise, tides fall"),
        titled("related", "Lunar pull", "the moon and the coast and the sea level"),
        titled("unrelated", "Cats", "cats sleep most of the day"),
        // Feedback adds only words rare in the collection (under 10% of its documents): a collection of some size.
        ...Array.from({ length: 30 }, (_, i) => titled(`filler-${i}`, `Garden ${i}`, `roses and tulips number ${i}`)),
      ]);
      const ids = async (words: string[], feedback: boolean) =>
        (
          await search(
            s,
            { words, ranking: { ...RANKING, feedback: feedback ? RANKING.feedback : null } },
            { limit: 10 },
          )
        ).map((h) => h.docId);
      const plain = await ids(["tides"], false);
      expect(plain).toHaveLength(3);
      expect(plain.indexOf("repeated")).toBeLessThan(plain.indexOf("in-body"));
      expect(plain.indexOf("in-title")).toBeLessThan(plain.indexOf("in-body"));
      // The first pass's documents share "moon" and "coast": the document without the word is found too.
      expect(await ids(["tides"], true)).toContain("related");
      expect(await ids(["tides"], true)).not.toContain("filler-0");
    });

    test("words are never read as FTS5 syntax", async () => {
      const s = await open();
      await putInto(s, "notes", [doc("a", ["not a near miss"])]);
      for (const w of ['"', "NOT", "near(", "*", "-", "AND", "a:b", "^x"])
        expect(await search(s, { words: [w, "miss"], ranking: RANKING }, { limit: 5 })).toBeArray();
      expect((await search(s, { words: ["NOT"], ranking: RANKING }, { limit: 5 })).map((h) => h.docId)).toEqual(["a"]);
      expect(await search(s, { words: [], ranking: RANKING }, { limit: 5 })).toEqual([]);
    });
  });
}
