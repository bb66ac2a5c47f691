import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DOCUMENT_LIST_PAGE } from "../../src/contract/collections.ts";
import type { CorpusDocumentInput } from "../../src/store/types.ts";
import { conforms } from "../helpers/documented-answer.ts";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { useLongTimeout } from "../setup.ts";
import { at, call, type Member, member } from "./collection-calls.ts";

useLongTimeout();

/**
 * A collection's documents list answers a page at a time (`?from=` / `next`), whatever the
 * collection holds: listed whole, a shared collection of 100,000 documents was 17 MB and
 * ~200 ms of the server's thread per call. Files on their way in join the pages in order.
 */

const DOCS = "/api/console/collections/{name}/documents";
const STORED = 2 * DOCUMENT_LIST_PAGE + 50;
const docId = (i: number) => `doc-${String(i).padStart(5, "0")}.md`;
const doc = (id: string): CorpusDocumentInput => ({
  docId: id,
  title: `Title of ${id}`,
  url: null,
  path: id,
  format: "markdown",
  contentHash: id,
  truncated: false,
  passages: [`the text of ${id}`],
});

let srv: InProcessServer;
let a: Member;
beforeAll(async () => {
  srv = startInProcess({ engine: scriptedEngine() });
  a = await member(srv, "a");
  await call(a, "POST", "/api/console/collections", { name: "big" });
  const c = (await srv.deps.store.corpus.findCollection(a.id, "big"))!;
  await srv.deps.store.corpus.put(
    c.id,
    Array.from({ length: STORED }, (_, i) => doc(docId(i))),
  );
  // Files that failed on their way in: one over a stored document, two of names of their own.
  const failed = ["doc-00003.md", "doc-00250b.md", "zz-last.md"];
  await srv.deps.store.instances.renew("elsewhere", 60_000);
  await srv.deps.store.uploads.enqueue(
    c.id,
    a.id,
    failed.map((id) => ({
      collectionId: c.id,
      docId: id,
      format: "markdown",
      bytes: 10,
      spool: "x",
      instanceId: "elsewhere",
    })),
    () => true,
  );
  for (const u of await srv.deps.store.uploads.inFlight(c.id)) await srv.deps.store.uploads.fail(u.id, "unreadable");
});
afterAll(() => srv?.stop(100));

describe("a collection's documents, a page at a time", () => {
  test("each answer holds at most a page and names the next; following next lists every document once, in order", async () => {
    const seen: { doc_id: string; status: string }[] = [];
    let from: string | null = "";
    let pages = 0;
    while (from !== null) {
      const q: string = from ? `?from=${encodeURIComponent(from)}` : "";
      const page: { documents: typeof seen; next: string | null } = await conforms(
        await a.c.req("GET", `${at("big")}/documents${q}`),
        DOCS,
        "get",
        200,
      );
      expect(page.documents.length).toBeLessThanOrEqual(DOCUMENT_LIST_PAGE);
      if (page.next !== null) expect(page.documents.length).toBe(DOCUMENT_LIST_PAGE);
      seen.push(...page.documents);
      from = page.next;
      pages++;
      expect(pages).toBeLessThan(10);
    }
    expect(pages).toBe(3);
    const ids = seen.map((d) => d.doc_id);
    const all = [...Array.from({ length: STORED }, (_, i) => docId(i)), "doc-00250b.md", "zz-last.md"].sort();
    expect(ids).toEqual(all);
    const byId = new Map(seen.map((d) => [d.doc_id, d.status]));
    expect([
      byId.get("doc-00003.md"),
      byId.get("doc-00250b.md"),
      byId.get("zz-last.md"),
      byId.get("doc-00004.md"),
    ]).toEqual(["failed", "failed", "failed", "ready"]);
  });

  test("a page from a doc_id starts at it; past the last, an empty page with no next", async () => {
    const mid = (await call(a, "GET", `${at("big")}/documents?from=${encodeURIComponent(docId(300))}`)).body;
    expect(mid.documents[0].doc_id).toBe(docId(300));
    const end = (await call(a, "GET", `${at("big")}/documents?from=zzzz`)).body;
    expect(end).toEqual({ documents: [], next: null });
    const twice = await call(a, "GET", `${at("big")}/documents?from=a&from=b`);
    expect(twice.status).toBe(400);
  });
});
