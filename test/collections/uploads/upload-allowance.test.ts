import { afterAll, describe, expect, test } from "bun:test";
import { useLongTimeout } from "../../setup.ts";
import { at, call, codeOf, type Member, member } from "../collection-calls.ts";
import { docOf, leftovers, settled, startUploadServer, upload } from "./upload-calls.ts";

useLongTimeout();

// Free: the defaults. Pro: three documents and 2,000 bytes, small enough to reach in a test.
const srv = startUploadServer({ PLAN_DOCS_PRO: "3", PLAN_BYTES_PRO: "2000" });
afterAll(() => srv.stop(100));

/** A pro account with its collection `notes`. */
async function pro(): Promise<Member> {
  const m = await member(srv.url, "p");
  await srv.deps.store.accounts.setPlan(m.email, "pro");
  await call(m, "POST", "/api/console/collections", { name: "notes" });
  return m;
}
const storage = async (m: Member) => (await call(m, "GET", "/api/console/usage")).body.storage;

describe("the storage allowance of a plan", () => {
  test("an upload past the documents or the bytes: 413 storage_quota_exceeded, nothing stored; usage shows it", async () => {
    const m = await pro();
    expect(
      (
        await upload(m, "notes", [
          { name: "a.md", data: "alpha" },
          { name: "b.md", data: "beta" },
        ])
      ).status,
    ).toBe(202);
    await settled(m, "notes");
    const before = leftovers(srv);
    const over = await upload(m, "notes", [
      { name: "c.md", data: "gamma" },
      { name: "d.md", data: "delta" },
    ]);
    expect([over.status, codeOf(over)]).toEqual([413, "storage_quota_exceeded"]);
    expect(over.body.errors[0].message).toContain("4 documents of the 3 your plan keeps");
    const big = await upload(m, "notes", [{ name: "big.txt", data: "z ".repeat(1200) }]);
    expect([big.status, codeOf(big)]).toEqual([413, "storage_quota_exceeded"]);
    expect(leftovers(srv)).toEqual(before);
    expect(await storage(m)).toEqual({
      documents: { limit: 3, used: 2, remaining: 1 },
      bytes: { limit: 2000, used: 9, remaining: 1991 },
    });
    // Uploading a stored name again replaces it: no document more, and within the allowance.
    expect((await upload(m, "notes", [{ name: "a.md", data: "alpha, edited" }])).status).toBe(202);
    expect((await settled(m, "notes")).map((d) => d.doc_id)).toEqual(["a.md", "b.md"]);
    // Removing a document makes room.
    expect((await call(m, "DELETE", at("notes", "b.md"))).status).toBe(200);
    expect(
      (
        await upload(m, "notes", [
          { name: "c.md", data: "gamma" },
          { name: "d.md", data: "delta" },
        ])
      ).status,
    ).toBe(202);
    expect((await settled(m, "notes")).map((d) => [d.doc_id, d.status])).toEqual([
      ["a.md", "ready"],
      ["c.md", "ready"],
      ["d.md", "ready"],
    ]);
  });

  test("two uploads racing for the last room: one is queued, the other refused", async () => {
    const m = await pro();
    await upload(m, "notes", [
      { name: "a.md", data: "alpha" },
      { name: "b.md", data: "beta" },
    ]);
    await settled(m, "notes");
    const [x, y] = await Promise.all([
      upload(m, "notes", [{ name: "x.md", data: "ex" }]),
      upload(m, "notes", [{ name: "y.md", data: "why" }]),
    ]);
    expect([x.status, y.status].sort()).toEqual([202, 413]);
    const docs = await settled(m, "notes");
    expect(docs).toHaveLength(3);
    expect((await storage(m)).documents).toEqual({ limit: 3, used: 3, remaining: 0 });
  });

  test("a JSONL file counts as one document until read: its records past the allowance are not stored", async () => {
    const m = await pro();
    await upload(m, "notes", [{ name: "a.md", data: "alpha" }]);
    await settled(m, "notes");
    const lines = [1, 2, 3, 4].map((i) => JSON.stringify({ id: `r${i}`, text: `record ${i}` })).join("\n");
    expect((await upload(m, "notes", [{ name: "four.jsonl", data: lines }])).status).toBe(202);
    const docs = await settled(m, "notes");
    expect(docOf(docs, "four.jsonl")).toMatchObject({
      status: "failed",
      error: "the plan's storage allowance is used up: the rest was not stored",
    });
    expect(docs.filter((d) => d.status === "ready").map((d) => d.doc_id)).toEqual(["a.md"]);
    expect((await storage(m)).documents.used).toBe(1);
  });

  test("a plan over its allowance (a smaller one since) is refused before the body is read", async () => {
    const m = await member(srv.url, "f");
    await call(m, "POST", "/api/console/collections", { name: "notes" });
    await upload(
      m,
      "notes",
      [1, 2, 3, 4].map((i) => ({ name: `${i}.md`, data: `note ${i}` })),
    );
    await settled(m, "notes");
    await srv.deps.store.accounts.setPlan(m.email, "pro");
    const r = await upload(m, "notes", [{ name: "5.md", data: "five" }]);
    expect([r.status, codeOf(r)]).toEqual([413, "storage_quota_exceeded"]);
    expect((await storage(m)).documents).toEqual({ limit: 3, used: 4, remaining: 0 });
  });

  test("a body past the allowance's room is stopped as it arrives, not read to its end", async () => {
    const m = await pro();
    let sent = 0;
    const data = "b".repeat(64 * 1024);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(
          new TextEncoder().encode('--XX\r\nContent-Disposition: form-data; name="files"; filename="huge.txt"\r\n\r\n'),
        );
      },
      pull(c) {
        if (sent > 2 * 1024 ** 3) return c.close();
        sent += data.length;
        c.enqueue(new TextEncoder().encode(data));
      },
    });
    const res = await fetch(`${srv.url}${at("notes")}/documents`, {
      method: "POST",
      body,
      headers: { cookie: m.c.cookie!, "content-type": "multipart/form-data; boundary=XX" },
    });
    expect([res.status, ((await res.json()) as any).errors[0].code]).toEqual([413, "storage_quota_exceeded"]);
    expect(sent).toBeLessThan(50 * 1024 * 1024);
    expect(leftovers(srv).spooled).toBe(0);
  });
});
