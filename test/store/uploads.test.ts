import { afterAll, describe, expect, test } from "bun:test";
import type { AccountRow, NewUpload, Store } from "../../src/store/types.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

/** The upload queue's table on every backend: what src/collections/ relies on, through the Store interface. */

const account = async (s: Store): Promise<AccountRow> => {
  const row: AccountRow = {
    id: crypto.randomUUID(),
    email: `${crypto.randomUUID().slice(0, 8)}@example.com`,
    passwordHash: "h",
    plan: "free",
    createdAt: "2026-11-01T00:00:00.000Z",
    emailStatus: "unproven",
  };
  await s.accounts.insert(row);
  return row;
};
const collection = async (s: Store, ownerId: string, name: string) =>
  (await s.corpus.createCollection({ name, ownerId, visibility: "private" }))!.id;
const file = (collectionId: number, docId: string, bytes = 100, instanceId = "live"): NewUpload => ({
  collectionId,
  docId,
  format: "markdown",
  bytes,
  spool: `${docId}.spool`,
  instanceId,
});
const fitsAll = () => true;
const stored = (docId: string, text = "some stored text") => ({
  docId,
  title: docId,
  url: null,
  path: docId,
  format: "text",
  contentHash: text,
  truncated: false,
  passages: [text],
});

for (const backend of backends) {
  describe(`the upload queue on ${backend.name}`, () => {
    const opened: AnyStore[] = [];
    const open = async (): Promise<Store> => {
      const s = await backend.open();
      opened.push(s);
      await s.instances.renew("live", 60_000);
      return s;
    };
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    test("statusCounts: the files by status, every status named, 0 when none", async () => {
      const s = await open();
      expect(await s.uploads.statusCounts()).toEqual({ queued: 0, indexing: 0, failed: 0 });
      const a = await account(s);
      const cid = await collection(s, a.id, "counted");
      const q = await s.uploads.enqueue(cid, a.id, [file(cid, "a.md"), file(cid, "b.md"), file(cid, "c.md")], fitsAll);
      if (typeof q === "string") throw new Error(q);
      await s.uploads.fail(q.queued[2]!.id, "not text");
      expect((await s.uploads.claim("live"))?.docId).toBe("a.md");
      expect(await s.uploads.statusCounts()).toEqual({ queued: 1, indexing: 1, failed: 1 });
    });

    test("enqueue: rows queued with their owner; a later file of a queued or failed name replaces it; storage counts them", async () => {
      const s = await open();
      const a = await account(s);
      const cid = await collection(s, a.id, "notes");
      await s.corpus.put(cid, [stored("kept.txt")]);
      const first = await s.uploads.enqueue(cid, a.id, [file(cid, "a.md", 100), file(cid, "b.md", 50)], fitsAll);
      if (typeof first === "string") throw new Error(first);
      expect(first.queued.map((r) => [r.docId, r.status, r.ownerId, r.bytes])).toEqual([
        ["a.md", "queued", a.id, 100],
        ["b.md", "queued", a.id, 50],
      ]);
      expect(first.superseded).toEqual([]);
      // Stored text (16 bytes, 1 document) plus two files at their size.
      expect(await s.uploads.storageUse(a.id)).toEqual({ documents: 3, bytes: 166 });
      await s.uploads.fail(first.queued[1]!.id, "not text");
      const again = await s.uploads.enqueue(cid, a.id, [file(cid, "a.md", 70), file(cid, "b.md", 10)], fitsAll);
      if (typeof again === "string") throw new Error(again);
      expect(again.superseded).toEqual(["a.md.spool"]); // the failed row had no file left
      const rows = await s.uploads.inFlight(cid);
      expect(rows.map((r) => [r.docId, r.bytes, r.status])).toEqual([
        ["a.md", 70, "queued"],
        ["b.md", 10, "queued"],
      ]);
      // A file replacing a stored document counts its bytes, not a second document.
      await s.uploads.enqueue(cid, a.id, [file(cid, "kept.txt", 5)], fitsAll);
      expect(await s.uploads.storageUse(a.id)).toEqual({ documents: 3, bytes: 16 + 70 + 10 + 5 });
      expect(await s.uploads.busy([cid, cid + 1000])).toEqual([cid]);
    });

    test("enqueue is all or nothing: `fits` saying no leaves no row; a removed collection is missing", async () => {
      const s = await open();
      const a = await account(s);
      const cid = await collection(s, a.id, "notes");
      await s.uploads.enqueue(cid, a.id, [file(cid, "a.md", 100)], fitsAll);
      let seen: unknown;
      const out = await s.uploads.enqueue(cid, a.id, [file(cid, "a.md", 900), file(cid, "c.md", 900)], (use) => {
        seen = use;
        return use.bytes <= 1000;
      });
      expect(out).toBe("over");
      expect(seen).toEqual({ documents: 2, bytes: 1800 }); // the replaced a.md no longer counts
      expect((await s.uploads.inFlight(cid)).map((r) => [r.docId, r.bytes])).toEqual([["a.md", 100]]);
      await s.corpus.removeCollection(cid);
      expect(await s.uploads.enqueue(cid, a.id, [file(cid, "x.md")], fitsAll)).toBe("missing");
    });

    test("claim: this instance's files only, collections in turn, never two of one collection at once", async () => {
      const s = await open();
      const a = await account(s);
      const one = await collection(s, a.id, "one");
      const two = await collection(s, a.id, "two");
      await s.uploads.enqueue(one, a.id, [file(one, "1a"), file(one, "1b"), file(one, "1c")], fitsAll);
      await s.uploads.enqueue(two, a.id, [file(two, "2a")], fitsAll);
      await s.uploads.enqueue(two, a.id, [file(two, "2b", 1, "other")], fitsAll);
      const first = await s.uploads.claim("live");
      expect([first?.docId, first?.status, first?.ownerId]).toEqual(["1a", "indexing", a.id]);
      // "one" has a file indexing: the next is "two"'s first.
      expect((await s.uploads.claim("live"))?.docId).toBe("2a");
      expect(await s.uploads.claim("live")).toBeNull();
      expect(await s.uploads.present(first!.id)).toBe(true);
      expect(await s.uploads.finish(first!.id)).toBe(true);
      expect(await s.uploads.finish(first!.id)).toBe(false);
      // A row removed meanwhile is told apart, as by finish: its import drops what it stored.
      expect(await s.uploads.present(first!.id)).toBe(false);
      expect(await s.uploads.fail(first!.id, "late")).toBe(false);
      expect((await s.uploads.claim("live"))?.docId).toBe("1b");
      expect(await s.uploads.busy([one, two])).toEqual(expect.arrayContaining([one, two]));
    });

    test("orphans: rows of a lapsed or missing lease, taken over once; removal takes any status", async () => {
      const s = await open();
      const a = await account(s);
      const cid = await collection(s, a.id, "notes");
      await s.instances.renew("dying", 60_000);
      await s.uploads.enqueue(cid, a.id, [file(cid, "mine.md"), file(cid, "theirs.md", 1, "dying")], fitsAll);
      await s.uploads.enqueue(cid, a.id, [file(cid, "nobody.md", 1, "never-leased")], fitsAll);
      expect((await s.uploads.orphans()).map((r) => r.docId)).toEqual(["nobody.md"]);
      await s.instances.release("dying");
      const orphans = await s.uploads.orphans();
      expect(orphans.map((r) => r.docId)).toEqual(["theirs.md", "nobody.md"]);
      expect(await s.uploads.adopt(orphans[0]!.id, "live")).toBe(true);
      expect(await s.uploads.adopt(orphans[0]!.id, "live")).toBe(false);
      expect((await s.uploads.orphans()).map((r) => r.docId)).toEqual(["nobody.md"]);
      expect((await s.uploads.spools()).sort()).toEqual(["mine.md.spool", "nobody.md.spool", "theirs.md.spool"]);
      expect((await s.uploads.remove(cid, "theirs.md")).map((r) => r.docId)).toEqual(["theirs.md"]);
      expect(await s.uploads.remove(cid, "theirs.md")).toEqual([]);
      expect((await s.uploads.inFlight(cid)).map((r) => r.docId)).toEqual(["mine.md", "nobody.md"]);
    });

    test("a removed collection takes its rows with it", async () => {
      const s = await open();
      const a = await account(s);
      const cid = await collection(s, a.id, "gone");
      await s.uploads.enqueue(cid, a.id, [file(cid, "x.md")], fitsAll);
      await s.corpus.removeCollection(cid);
      expect(await s.uploads.inFlight(cid)).toEqual([]);
      expect(await s.uploads.storageUse(a.id)).toEqual({ documents: 0, bytes: 0 });
    });
  });
}
