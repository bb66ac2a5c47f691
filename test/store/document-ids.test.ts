import { afterAll, describe, expect, test } from "bun:test";
import type { Store } from "../../src/store/types.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

/**
 * The Console's pages of a collection's documents on every backend: doc_ids stored or on their
 * way in, each once, in the database's order from `from` on, and the rows of just those.
 */
for (const backend of backends) {
  describe(`a page of doc_ids on ${backend.name}`, () => {
    const opened: AnyStore[] = [];
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    test("stored and in-flight doc_ids merge once each, from `from`, at most `limit`; rows read by doc_id", async () => {
      const s: Store = await backend.open();
      opened.push(s as AnyStore);
      const cid = (await s.corpus.createCollection({ name: "pages", ownerId: null, visibility: "shared" }))!.id;
      const stored = ["a.md", "c.md", "e.md", "g.md"];
      await s.corpus.put(
        cid,
        stored.map((docId) => ({
          docId,
          title: docId,
          url: null,
          path: docId,
          format: "text",
          contentHash: docId,
          truncated: false,
          passages: [`text of ${docId}`],
        })),
      );
      await s.instances.renew("live", 60_000);
      const file = (docId: string) => ({
        collectionId: cid,
        docId,
        format: "text",
        bytes: 1,
        spool: "s",
        instanceId: "live",
      });
      await s.uploads.enqueue(cid, "owner", [file("b.md"), file("c.md"), file("f.md")], () => true);
      expect(await s.corpus.documentIds(cid, "", 10)).toEqual(["a.md", "b.md", "c.md", "e.md", "f.md", "g.md"]);
      expect(await s.corpus.documentIds(cid, "", 3)).toEqual(["a.md", "b.md", "c.md"]);
      expect(await s.corpus.documentIds(cid, "c.md", 3)).toEqual(["c.md", "e.md", "f.md"]);
      expect(await s.corpus.documentIds(cid, "g.md", 3)).toEqual(["g.md"]);
      expect(await s.corpus.documentIds(cid, "h", 3)).toEqual([]);
      expect((await s.corpus.documents(cid, ["c.md", "e.md", "x.md"])).map((d) => d.docId)).toEqual(["c.md", "e.md"]);
      expect((await s.uploads.inFlight(cid, ["c.md", "e.md"])).map((u) => u.docId)).toEqual(["c.md"]);
    });
  });
}
