import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { conforms } from "../helpers/documented-answer.ts";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { useLongTimeout } from "../setup.ts";
import { at, call, codeOf, fill, HR_NOTES, type Member, member } from "./collection-calls.ts";

useLongTimeout();

let srv: InProcessServer;
let a: Member;
beforeAll(async () => {
  srv = startInProcess({ engine: scriptedEngine(), env: { SIGNUP_PER_HOUR: "50" } });
  a = await member(srv, "a");
  await call(a, "POST", "/api/console/collections", { name: "hr" });
  await fill(srv.deps.store, a.id, "hr", HR_NOTES);
});
afterAll(() => srv?.stop(100));

const DOCS = "/api/console/collections/{name}/documents";
const DOC = "/api/console/collections/{name}/documents/{doc_id}";
const SLASHED = "reviews/q3 salaries.md";

describe("a collection's documents", () => {
  test("the list: every stored document is ready, by doc_id, with its title and size", async () => {
    const list = await conforms(await a.c.req("GET", `${at("hr")}/documents`), DOCS, "get", 200);
    expect(list.documents).toEqual([
      {
        doc_id: "hiring.md",
        title: "Hiring plan",
        status: "ready",
        chars: expect.any(Number),
        format: "markdown",
        added_at: expect.any(String),
      },
      {
        doc_id: SLASHED,
        title: "Q3 salary review",
        status: "ready",
        chars: expect.any(Number),
        format: "markdown",
        added_at: expect.any(String),
      },
    ]);
    expect(list.documents[1].chars).toBeGreaterThan(100);
  });

  test("a doc_id with '/' travels percent-encoded in one segment: read, then removed; unencoded it names no route", async () => {
    expect(at("hr", SLASHED)).toEndWith("/documents/reviews%2Fq3%20salaries.md");
    const page = await conforms(await a.c.req("GET", at("hr", SLASHED)), DOC, "get", 200);
    expect(page).toEqual({
      doc_id: SLASHED,
      title: "Q3 salary review",
      collection: "hr",
      owner: a.email,
      url: null,
      format: "markdown",
      chars: expect.any(Number),
      truncated: false,
      passages: [{ seq: 0, text: expect.stringContaining("salary bands for engineers rise by four percent") }],
      next: null,
    });
    const raw = await call(a, "GET", `${at("hr")}/documents/reviews/q3%20salaries.md`);
    expect([raw.status, codeOf(raw)]).toEqual([404, "not_found"]);
    const broken = await conforms(await a.c.req("GET", `${at("hr")}/documents/bad%ZZ`), DOC, "get", 400);
    expect(broken.errors[0].message).toContain("doc_id");
    const removed = await conforms(await a.c.req("DELETE", at("hr", SLASHED)), DOC, "delete", 200);
    expect(removed).toEqual({ doc_id: SLASHED });
    const again = await conforms(await a.c.req("DELETE", at("hr", SLASHED)), DOC, "delete", 404);
    expect(again.errors[0].code).toBe("document_not_found");
    const read = await conforms(await a.c.req("GET", at("hr", SLASHED)), DOC, "get", 404);
    expect(read.errors[0].code).toBe("document_not_found");
    const left = (await call(a, "GET", `${at("hr")}/documents`)).body.documents.map((d: any) => d.doc_id);
    expect(left).toEqual(["hiring.md"]);
    const summary = (await call(a, "GET", "/api/console/collections")).body.collections[0];
    expect([summary.name, summary.documents]).toEqual(["hr", 1]);
  });

  test("a long document comes 100 passages at a time; next pages on to the end", async () => {
    const para = (i: number) => `Paragraph ${i} ${"word ".repeat(118).trim()}.`;
    await call(a, "POST", "/api/console/collections", { name: "book" });
    await fill(srv.deps.store, a.id, "book", {
      "long.txt": Array.from({ length: 230 }, (_, i) => para(i)).join("\n\n"),
    });
    const seqs: number[] = [];
    let from: number | null = 0;
    const pages: number[] = [];
    while (from !== null) {
      const page = await conforms(await a.c.req("GET", at("book", "long.txt", `?from=${from}`)), DOC, "get", 200);
      pages.push(page.passages.length);
      seqs.push(...page.passages.map((p: any) => p.seq));
      expect(page.passages[0].text).toStartWith(`Paragraph ${from} `);
      from = page.next;
    }
    expect(pages).toEqual([100, 100, 30]);
    expect(seqs).toEqual(Array.from({ length: 230 }, (_, i) => i));
    const past = (await call(a, "GET", at("book", "long.txt", "?from=5000"))).body;
    expect([past.passages, past.next]).toEqual([[], null]);
    for (const bad of ["-1", "x", "1.5"]) {
      const r = await call(a, "GET", at("book", "long.txt", `?from=${bad}`));
      expect([bad, r.status, codeOf(r)]).toEqual([bad, 400, "invalid_request"]);
    }
  });

  test("documents of a collection that is not there, or of a name given twice as owner, are refused", async () => {
    const none = await conforms(await a.c.req("GET", `${at("nope")}/documents`), DOCS, "get", 404);
    expect(none.errors[0].code).toBe("collection_not_found");
    const twice = await call(a, "GET", `${at("hr")}/documents?owner=${a.email}&owner=x@example.com`);
    expect([twice.status, codeOf(twice)]).toEqual([400, "invalid_request"]);
    const mine = await call(a, "GET", `${at("hr")}/documents?owner=${encodeURIComponent(a.email.toUpperCase())}`);
    expect(mine.status).toBe(200);
  });
});
