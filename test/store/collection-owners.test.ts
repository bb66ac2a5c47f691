import { afterAll, describe, expect, test } from "bun:test";
import type { CorpusDocumentInput } from "../../src/store/types.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

const doc = (docId: string): CorpusDocumentInput => ({
  docId,
  title: `Title ${docId}`,
  url: null,
  path: null,
  format: "text",
  contentHash: docId,
  truncated: false,
  passages: [`text of ${docId} — ünïcode`],
});

async function account(s: AnyStore, email: string): Promise<string> {
  const id = crypto.randomUUID();
  await s.accounts.insert({
    id,
    email,
    passwordHash: null,
    plan: "free",
    createdAt: new Date().toISOString(),
    emailStatus: "unproven",
  });
  return id;
}

for (const backend of backends) {
  const opened: AnyStore[] = [];
  afterAll(async () => {
    for (const s of opened) await s.close();
  });
  const open = async () => {
    const s = await backend.open();
    opened.push(s);
    return s;
  };

  describe(`collections owned by accounts on ${backend.name}`, () => {
    test("names are unique per owner, not per instance; the unowned ones among themselves", async () => {
      const s = await open();
      const [a, b] = [await account(s, "a@x.example"), await account(s, "b@x.example")];
      const mine = await s.corpus.createCollection({ name: "notes", ownerId: a, visibility: "private" });
      expect(mine).toMatchObject({ name: "notes", ownerId: a, owner: "a@x.example", visibility: "private" });
      expect(await s.corpus.createCollection({ name: "notes", ownerId: a, visibility: "shared" })).toBeNull();
      expect(await s.corpus.createCollection({ name: "notes", ownerId: b, visibility: "private" })).not.toBeNull();
      expect(await s.corpus.createCollection({ name: "notes", ownerId: null, visibility: "shared" })).not.toBeNull();
      expect(await s.corpus.createCollection({ name: "notes", ownerId: null, visibility: "shared" })).toBeNull();
      expect((await s.corpus.findCollection(b, "notes"))?.owner).toBe("b@x.example");
      expect((await s.corpus.findCollection(null, "notes"))?.owner).toBeNull();
    });

    test("a reader reads the shared collections and its own private ones, nothing else", async () => {
      const s = await open();
      const [a, b] = [await account(s, "a@x.example"), await account(s, "b@x.example")];
      const pa = (await s.corpus.createCollection({ name: "hr", ownerId: a, visibility: "private" }))!;
      const pb = (await s.corpus.createCollection({ name: "mine", ownerId: b, visibility: "private" }))!;
      const sh = (await s.corpus.createCollection({ name: "handbook", ownerId: a, visibility: "shared" }))!;
      const un = (await s.corpus.createCollection({ name: "legacy", ownerId: null, visibility: "shared" }))!;
      await s.corpus.put(pa.id, [doc("salaries")]);
      expect(await s.corpus.readable({ accounts: [b] })).toEqual([pb.id, sh.id, un.id]);
      expect(await s.corpus.readable({ accounts: [a] })).toEqual([pa.id, sh.id, un.id]);
      expect(await s.corpus.readable({ accounts: [] })).toEqual([sh.id, un.id]);
      expect((await s.corpus.collections({ accounts: [b] })).map((c) => c.name)).toEqual([
        "handbook",
        "legacy",
        "mine",
      ]);
      expect(await s.corpus.hasDocuments(await s.corpus.readable({ accounts: [b] }))).toBe(false);
      expect(await s.corpus.hasDocuments(await s.corpus.readable({ accounts: [a] }))).toBe(true);
      // Sizes count the kept text's UTF-8 bytes, what the storage allowance measures.
      const [hr] = (await s.corpus.collections({ accounts: [a] })).filter((c) => c.id === pa.id);
      expect(hr).toMatchObject({ documents: 1, bytes: Buffer.byteLength("text of salaries — ünïcode") });
    });

    test("renames, visibility and hand-overs keep names unique per owner", async () => {
      const s = await open();
      const [a, b] = [await account(s, "a@x.example"), await account(s, "b@x.example")];
      const one = (await s.corpus.createCollection({ name: "one", ownerId: a, visibility: "private" }))!;
      await s.corpus.createCollection({ name: "two", ownerId: a, visibility: "private" });
      await s.corpus.createCollection({ name: "one", ownerId: b, visibility: "private" });
      expect(await s.corpus.updateCollection(one.id, { name: "two" })).toBe("taken");
      expect(await s.corpus.updateCollection(one.id, { ownerId: b })).toBe("taken");
      expect(await s.corpus.updateCollection(one.id, { name: "three", visibility: "shared" })).toBe("ok");
      expect(await s.corpus.findCollection(a, "three")).toMatchObject({ id: one.id, visibility: "shared" });
      expect(await s.corpus.readable({ accounts: [b] })).toContain(one.id);
      expect(await s.corpus.updateCollection(one.id, { visibility: "private" })).toBe("ok");
      expect(await s.corpus.readable({ accounts: [b] })).not.toContain(one.id);
      expect(await s.corpus.updateCollection(999_999, { name: "x" })).toBe("missing");
    });

    test("one document by its doc_id, within its collection only", async () => {
      const s = await open();
      const one = (await s.corpus.createCollection({ name: "one", ownerId: null, visibility: "shared" }))!;
      const two = (await s.corpus.createCollection({ name: "two", ownerId: null, visibility: "shared" }))!;
      await s.corpus.put(one.id, [doc("reports/a.md"), doc("b")]);
      expect(await s.corpus.document(one.id, "reports/a.md")).toMatchObject({
        docId: "reports/a.md",
        collectionId: one.id,
        collection: "one",
        title: "Title reports/a.md",
      });
      expect(await s.corpus.document(two.id, "reports/a.md")).toBeNull();
      expect(await s.corpus.document(one.id, "missing")).toBeNull();
    });

    test("a put into a collection removed meanwhile fails whole", async () => {
      const s = await open();
      const c = (await s.corpus.createCollection({ name: "gone", ownerId: null, visibility: "shared" }))!;
      expect(await s.corpus.removeCollection(c.id)).toBe(0);
      await expect(Promise.resolve().then(() => s.corpus.put(c.id, [doc("late")]))).rejects.toThrow(/removed/);
      expect(await backend.count(s, "SELECT count(*) AS n FROM corpus_documents")).toBe(0);
    });
  });
}
