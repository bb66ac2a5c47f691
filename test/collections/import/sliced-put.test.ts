import { describe, expect, test } from "bun:test";
import { SLICE, slicedPut, slices } from "../../../src/collections/import/sliced-put.ts";
import { openSqliteStore } from "../../../src/store/sqlite/open.ts";
import type { CorpusDocumentInput } from "../../../src/store/types.ts";
import { sharedCollection } from "../../corpus/collections-helpers.ts";

const doc = (id: string, chars: number): CorpusDocumentInput => ({
  docId: id,
  title: id,
  url: null,
  path: null,
  format: "text",
  contentHash: `${id}:${chars}`,
  truncated: false,
  passages: ["x".repeat(chars)],
});

describe("an upload's documents written in slices on SQLite", () => {
  test("slices keep to SLICE's documents and characters; a longer document is a slice alone", () => {
    const docs = [
      ...Array.from({ length: 40 }, (_, i) => doc(`d${i}`, 100)),
      doc("big", SLICE.chars * 3),
      doc("z", 10),
    ];
    const parts = slices(docs);
    expect(parts.flat().map((d) => d.docId)).toEqual(docs.map((d) => d.docId));
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(SLICE.docs);
      const chars = p.reduce((n, d) => n + d.passages[0]!.length, 0);
      if (p.length > 1) expect(chars).toBeLessThanOrEqual(SLICE.chars);
    }
    expect(parts.find((p) => p.some((d) => d.docId === "big"))).toHaveLength(1);
  });

  test("every document written once, outcomes in order; a failing slice leaves the earlier ones counted", async () => {
    const store = openSqliteStore(":memory:");
    const c = await sharedCollection(store, "up");
    const docs = Array.from({ length: 50 }, (_, i) => doc(`d${i}`, 2_000));
    const seen: string[] = [];
    const out = await slicedPut(store, c.id, docs, (part) => seen.push(...part.map((d) => d.docId)));
    expect(out).toEqual(docs.map(() => "added"));
    expect(seen).toEqual(docs.map((d) => d.docId));
    expect((await store.corpus.documents(c.id)).length).toBe(50);
    // The collection goes between two slices: what was stored before is reported, the rest refused.
    const more = Array.from({ length: 50 }, (_, i) => doc(`e${i}`, 2_000));
    const stored: string[] = [];
    const removeSoon = new Promise<void>((r) =>
      setImmediate(() => {
        store.corpus.removeCollection(c.id);
        r();
      }),
    );
    const failed = slicedPut(store, c.id, more, (part) => stored.push(...part.map((d) => d.docId))).then(
      () => null,
      (e: Error) => e,
    );
    await removeSoon;
    expect((await failed)?.message).toMatch(/removed/);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThan(50);
    store.close();
  });
});
