import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectionNameProblem } from "../../../src/corpus/import/collection-name.ts";
import { searchCorpus } from "../../../src/corpus/search/search-corpus.ts";
import { docsOf, searchIn } from "../collections-helpers.ts";
import { importer, jsonl, tempDir, writeTree } from "./import-fixtures.ts";

const note = (topic: string) =>
  `Notes on ${topic}\n\nThe committee discussed ${topic} at length and agreed to revisit it next quarter.\n`;

describe("importing again", () => {
  test("an unchanged document is a no-op; a changed one replaces its old version; others are kept", async () => {
    const dir = writeTree(tempDir(), { "a.txt": note("heat pumps"), "b.txt": note("solar roofs") });
    const { store, run } = importer();
    expect(await run([dir])).toMatchObject({ added: 2, replaced: 0, unchanged: 0 });
    const before = await docsOf(store, "test");

    expect(await run([dir])).toMatchObject({ added: 0, replaced: 0, unchanged: 2 });
    // Not rewritten: same rows, same store ids.
    expect(await docsOf(store, "test")).toEqual(before);

    writeFileSync(join(dir, "b.txt"), note("geothermal wells"));
    expect(await run([dir])).toMatchObject({ added: 0, replaced: 1, unchanged: 1 });
    const hits = await searchIn(store, "solar roofs", { collection: "test", limit: 5 });
    expect(hits.map((h) => h.docId)).toEqual([]); // the old text is gone from the index
    expect((await searchCorpus(store, "geothermal", { collections: null, limit: 5 })).map((h) => h.docId)).toEqual([
      "b.txt",
    ]);
    const [, b] = await docsOf(store, "test");
    expect(b!.title).toBe("Notes on geothermal wells");
    expect((await store.corpus.collections("all"))[0]).toMatchObject({ name: "test", documents: 2 });
  });

  test("JSONL records are compared one by one", async () => {
    const dir = tempDir();
    const file = join(dir, "c.jsonl");
    const recs = [1, 2, 3].map((i) => ({ id: `r${i}`, title: `Record ${i}`, text: note(`topic number ${i}`) }));
    writeFileSync(file, jsonl(recs));
    const { run } = importer();
    expect(await run([file])).toMatchObject({ added: 3 });
    recs[1]!.text = note("something else entirely");
    writeFileSync(file, jsonl(recs));
    expect(await run([file])).toMatchObject({ added: 0, replaced: 1, unchanged: 2 });
  });

  test("collections are separate: the same file in two collections is two documents", async () => {
    const dir = writeTree(tempDir(), { "a.txt": note("wind farms") });
    const { store, run } = importer();
    await run([dir], { collection: "one" });
    expect(await run([dir], { collection: "two" })).toMatchObject({ added: 1 });
    expect((await store.corpus.collections("all")).map((c) => [c.name, c.documents])).toEqual([
      ["one", 1],
      ["two", 1],
    ]);
    expect(await store.corpus.removeCollection((await store.corpus.findCollection(null, "one"))!.id)).toBe(1);
    expect((await searchCorpus(store, "wind farms", { collections: null, limit: 5 })).map((h) => h.collection)).toEqual(
      ["two"],
    );
  });

  test("a collection name that could not be part of a local: reference is refused", () => {
    expect(collectionNameProblem("a/b")).toMatch(/invalid collection name "a\/b"/);
    expect(collectionNameProblem("notes-2026")).toBeNull();
  });
});
