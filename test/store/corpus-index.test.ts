import { afterAll, describe, expect, test } from "bun:test";
import { putInto } from "../corpus/collections-helpers.ts";
import { textDoc as doc } from "../corpus/search/search-helpers.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

for (const backend of backends) {
  const opened: AnyStore[] = [];
  afterAll(async () => {
    for (const s of opened) await s.close();
  });
  const open = async () => {
    const s = await backend.open();
    opened.push(s);
    await putInto(s, "notes", [doc("a", "Tide", "tide tide moon"), doc("b", "Cats", "cats sleep")]);
    await putInto(s, "papers", [doc("c", "Models", "tide models of the sea")]);
    return s;
  };

  describe(`the corpus index port on ${backend.name}`, () => {
    test("reads are kept to the collections asked for", async () => {
      const s = await open();
      const ix = s.corpusIndex;
      const cs = await ix.collections();
      expect(cs.map((c) => c.name)).toEqual(["notes", "papers"]);
      const [notes, papers] = cs.map((c) => c.id) as [number, number];
      const [tide] = await ix.analyse("tide");
      const byDoc = async (ids: number[]) => new Map((await ix.documents(ids)).map((d) => [d.id, d.docId] as const));
      const docs = await byDoc([...(await ix.lengths([notes, papers])).ids]);
      const id = (docId: string) => [...docs].find(([, d]) => d === docId)![0];

      const both = (await ix.postings([tide!, "zzz-nowhere"], [notes, papers])).get(tide!)!;
      expect(both.docs.map((d) => docs.get(d)).sort()).toEqual(["a", "c"]);
      // "a" holds the word once in its title and twice in its body.
      const i = both.docs.indexOf(id("a"));
      expect([both.title[i], both.body[i]]).toEqual([1, 2]);
      expect((await ix.postings(["zzz-nowhere"], [notes])).get("zzz-nowhere")!.docs).toEqual([]);
      expect((await ix.postings([tide!], [papers])).get(tide!)!.docs).toEqual([id("c")]);
      expect((await ix.postings([tide!], [])).get(tide!)!.docs).toEqual([]);

      expect((await ix.documentFrequencies([tide!], [notes, papers])).get(tide!)).toBe(2);
      expect((await ix.documentFrequencies([tide!], [notes])).get(tide!)).toBe(1);

      const len = await ix.lengths([notes]);
      expect([...len.ids].map((d) => docs.get(d)).sort()).toEqual(["a", "b"]);
      const a = [...len.ids].indexOf(id("a"));
      expect([len.collection[a], len.title[a], len.body[a]]).toEqual([notes, 1, 3]);

      const counts = (await ix.termCounts([id("a")])).get(id("a"))!;
      expect(counts.get(tide!)).toBe(3);
      expect([...counts.values()].reduce((x, y) => x + y, 0)).toBe(4);
    });

    test("a collection's version changes when its documents do", async () => {
      const s = await open();
      const version = async () => (await s.corpusIndex.collections()).find((c) => c.name === "notes")!.version;
      const before = await version();
      expect(await version()).toBe(before);
      await putInto(s, "notes", [doc("d", "Orbit", "orbit period")]);
      const afterPut = await version();
      expect(afterPut).not.toBe(before);
      await s.corpus.removeDocuments((await s.corpus.findCollection(null, "notes"))!.id, ["d"]);
      expect(await version()).not.toBe(afterPut);
    });
  });
}
