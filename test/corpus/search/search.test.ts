import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RANKING } from "../../../src/corpus/search/search-corpus.ts";
import { openSqliteStore } from "../../../src/store/sqlite/open.ts";
import { searchIn } from "../collections-helpers.ts";
import { filler, putDocs, sqliteCollection, storeWith } from "./search-helpers.ts";

const ids = async (...a: Parameters<typeof searchIn>) => (await searchIn(...a)).map((h) => h.docId);

describe("searchCorpus ranking", () => {
  test("words match across inflections (porter stemming)", async () => {
    const s = storeWith([...filler(5), ["run", "Morning habits", "She runs every morning before work."]]);
    expect(await ids(s, "running", { limit: 5 })).toEqual(["run"]);
  });

  test("a word in the title counts more than the same word in the body", async () => {
    // Put first, the body document wins ties (by id): only the title weight puts the other ahead.
    const docs: [string, string, string][] = [
      ["body", "other", "a zebra seen in the field"],
      ["title", "zebra stripes pattern", "a horse seen in the field"],
      ...filler(10),
    ];
    const s = storeWith(docs);
    expect((await ids(s, "zebra", { limit: 2, ranking: { ...RANKING, feedback: null } }))[0]).toBe("title");
    const flat = { ...RANKING, titleWeight: 1, feedback: null };
    expect((await ids(s, "zebra", { limit: 2, ranking: flat }))[0]).toBe("body");
  });

  test("feedback finds a document that shares the top hits' words but not the query's", async () => {
    const s = storeWith([
      ["hit", "Quokka survey", "quokka populations on rottnest island with marsupial census counts"],
      ["hit2", "Quokka diet", "quokka marsupial census on rottnest island grasses"],
      ["related", "Island census", "marsupial census counts on rottnest island by rangers"],
      ...filler(40),
    ]);
    expect(await ids(s, "quokka", { limit: 5 })).toContain("related");
    expect(await ids(s, "quokka", { limit: 5, ranking: { ...RANKING, feedback: null } })).not.toContain("related");
  });

  test("--collection keeps to one collection; an unknown one finds nothing", async () => {
    const s = storeWith([["a", "Otters", "otters hold hands while sleeping"], ...filler(5)], "one");
    putDocs(s, [["b", "Otters too", "otters use stones as tools"]], "two");
    expect((await ids(s, "otters", { limit: 5 })).sort()).toEqual(["a", "b"]);
    expect(await ids(s, "otters", { limit: 5, collection: "two" })).toEqual(["b"]);
    expect(await ids(s, "otters", { limit: 5, collection: "three" })).toEqual([]);
  });

  test("query text is never read as FTS syntax", async () => {
    const s = storeWith([["n", "Not a near miss", "cats and dogs, near the star* NOT here"], ...filler(3)]);
    for (const q of ['cats "dogs', "NOT cats", "cats*", "near(cats dogs)", "-cats", "cats AND OR", "^cats:"])
      expect(await ids(s, q, { limit: 3 })).toContain("n");
    expect(await ids(s, "", { limit: 3 })).toEqual([]);
    expect(await ids(s, '" * ( ) -', { limit: 3 })).toEqual([]);
  });

  test("a query of stop words only still searches them", async () => {
    const s = storeWith([["w", "Whoever", "to be or not to be"], ...filler(3)]);
    expect(await ids(s, "to be or not", { limit: 3 })).toEqual(["w"]);
  });

  test("a word inside a run of Chinese or Japanese text is found (bigrams)", async () => {
    const s = storeWith([
      ["ja", "研究ノート", "機械学習の研究について書きました"],
      ["zh", "笔记", "今天天气很好"],
      ...filler(3),
    ]);
    expect(await ids(s, "学習", { limit: 3 })).toEqual(["ja"]);
    expect(await ids(s, "天气", { limit: 3 })).toEqual(["zh"]);
  });

  test("documents added or removed after a search are seen by the next one", async () => {
    const s = storeWith(filler(5));
    expect(await ids(s, "walrus", { limit: 3 })).toEqual([]);
    putDocs(s, [["w", "Walrus", "walrus tusks grow all life"]]);
    expect(await ids(s, "walrus", { limit: 3 })).toEqual(["w"]);
    s.corpus.removeDocuments(sqliteCollection(s, "default").id, ["w"]);
    expect(await ids(s, "walrus", { limit: 3 })).toEqual([]);
  });

  test("documents another connection adds (another process: corpus add beside a server) are seen by the next search", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "rq-search-")), "rq.db");
    const server = openSqliteStore(path);
    const cli = openSqliteStore(path);
    putDocs(cli, [...filler(5), ["w1", "Walrus", "walrus tusks grow all life"]]);
    expect(await ids(server, "walrus tusks", { limit: 3 })).toEqual(["w1"]);
    putDocs(cli, [["w2", "Walrus tusks", "walrus tusks are long teeth"]]);
    expect((await ids(server, "walrus tusks", { limit: 3 })).sort()).toEqual(["w1", "w2"]);
    cli.corpus.removeDocuments(sqliteCollection(cli, "default").id, ["w1"]);
    expect(await ids(server, "walrus tusks", { limit: 3 })).toEqual(["w2"]);
    server.close();
    cli.close();
  });
});
