import { describe, expect, test } from "bun:test";
import { createRanker, IMPORT_STALE_MS } from "../../../src/corpus/search/ranker.ts";
import { corpusQuery } from "../../../src/corpus/search/search-corpus.ts";
import { filler, putDocs, sqliteCollection, storeWith } from "./search-helpers.ts";

describe("searches while an import writes", () => {
  test("held: a view up to IMPORT_STALE_MS old serves; past it, or once released, writes are seen", async () => {
    const s = storeWith([...filler(5), ["w1", "Walrus", "walrus tusks grow all life"]]);
    let clock = 0;
    const ranker = createRanker(s.corpusIndex, () => clock);
    const ids = async () => (await ranker.rank(corpusQuery("walrus tusks"), null, 5)).map((h) => h.docId).sort();
    expect(await ids()).toEqual(["w1"]);

    const release = ranker.holdDuringImport();
    putDocs(s, [["w2", "Walrus tusks", "walrus tusks are long teeth"]]);
    clock += IMPORT_STALE_MS - 1;
    expect(await ids()).toEqual(["w1"]); // the view of a moment ago
    clock += 1;
    expect(await ids()).toEqual(["w1", "w2"]); // too old: read again
    putDocs(s, [["w3", "Walrus tusk ivory", "walrus tusks and ivory trade"]]);
    // A document removed meanwhile is never returned, whatever the view remembers.
    s.corpus.removeDocuments(sqliteCollection(s, "default").id, ["w1"]);
    expect(await ids()).toEqual(["w2"]);

    release();
    release(); // twice is once
    expect(await ids()).toEqual(["w2", "w3"]);
    putDocs(s, [["w4", "Walrus", "walrus tusks again"]]);
    expect(await ids()).toEqual(["w2", "w3", "w4"]); // not held: every write is seen at once
    s.close();
  });
});
