import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { corpusQuery, searchCorpus, searcherOf } from "../../../src/corpus/search/search-corpus.ts";
import { openSqliteStore } from "../../../src/store/sqlite/open.ts";
import { putInto, sharedCollection } from "../collections-helpers.ts";
import { textDoc as doc } from "./search-helpers.ts";

/**
 * A SQLite file is searched on search threads with their own read-only connection
 * (docs/decisions/0094-searches-off-the-event-loop.md): what the server writes is seen by the
 * next search, and a search its caller stops waiting for ends at once.
 */
describe("searches on their own threads", () => {
  const dir = mkdtempSync(join(tmpdir(), "rq-search-threads-"));
  const store = openSqliteStore(join(dir, "rq.db"));
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("each write of the server's connection is seen by the next search", async () => {
    expect(store.corpusReaderSource).toEqual({ backend: "sqlite", path: join(dir, "rq.db") });
    await putInto(store, "notes", [doc("a", "Tides", "The moon pulls the tides of the sea")]);
    const ids = (o: { docId: string }[]) => o.map((h) => h.docId);
    expect(ids(await searchCorpus(store, "tides moon", { collections: null, limit: 5 }))).toEqual(["a"]);
    await putInto(store, "notes", [doc("b", "Reefs", "Coral reefs grow where the tides are warm")]);
    expect(ids(await searchCorpus(store, "coral reefs", { collections: null, limit: 5 }))).toEqual(["b"]);
    const c = await sharedCollection(store, "notes");
    await store.corpus.removeDocuments(c.id, ["b"]);
    expect(ids(await searchCorpus(store, "coral reefs tides", { collections: null, limit: 5 }))).toEqual(["a"]);
    const [hit] = await searchCorpus(store, "moon", { collections: null, limit: 1 });
    const passages = await searcherOf(store).passages(hit!.id, corpusQuery("moon").words, 2);
    expect(passages[0]!.text).toContain("moon");
  });

  test("a search whose caller stopped waiting is refused, and the next one is answered", async () => {
    const stop = new AbortController();
    const asked = searchCorpus(store, "tides", { collections: null, limit: 5, signal: stop.signal });
    stop.abort();
    await expect(asked).rejects.toThrow(/abandoned/);
    expect((await searchCorpus(store, "tides", { collections: null, limit: 5 })).length).toBe(1);
  });
});
