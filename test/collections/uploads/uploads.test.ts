import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tinyPdf } from "../../fixtures/tiny-pdf.ts";
import { conforms } from "../../helpers/documented-answer.ts";
import { query } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { at, call, codeOf, type Member, member } from "../collection-calls.ts";
import { docOf, leftovers, settled, startUploadServer, upload } from "./upload-calls.ts";

useLongTimeout();

const DOCS = "/api/console/collections/{name}/documents";

// The real engine over the collections (no model, no web): a run answers from what was uploaded.
const srv = startUploadServer({}, { realEngine: true });
let a: Member;
let b: Member;
beforeAll(async () => {
  [a, b] = await Promise.all([member(srv.url, "a"), member(srv.url, "b")]);
  for (const m of [a, b])
    expect((await call(m, "POST", "/api/console/collections", { name: "notes" })).status).toBe(201);
});
afterAll(() => srv.stop(100));

const TIDES =
  "# Tides and the moon\n\nThe moon's gravity raises two tidal bulges; spring tides follow the new and full moon.";
const SLEEP = "Sleep spindles appear in stage two sleep and help consolidate memories of the day.";

describe("uploading files into a collection", () => {
  test("several files: 202 with each queued; each reaches ready; the owner's runs find them, another's never", async () => {
    const r = await upload(a, "notes", [
      { name: "tides.md", data: TIDES },
      { name: "sleep notes.txt", data: SLEEP },
      { name: "orbit.pdf", data: tinyPdf(["Kepler's laws describe each planet's elliptical orbit."], "Orbits") },
      {
        name: "page.html",
        data: "<html><head><title>Comets</title></head><body><p>Comets shed dust tails near the sun.</p></body></html>",
      },
    ]);
    expect(r.status).toBe(202);
    const accepted = await conforms(new Response(r.text, { status: 202, headers: r.res.headers }), DOCS, "post", 202);
    expect(accepted.documents.map((d: any) => [d.doc_id, d.status])).toEqual([
      ["tides.md", "queued"],
      ["sleep notes.txt", "queued"],
      ["orbit.pdf", "queued"],
      ["page.html", "queued"],
    ]);
    const docs = await settled(a, "notes");
    expect(docs.map((d) => [d.doc_id, d.status, d.title])).toEqual([
      ["orbit.pdf", "ready", "Orbits"],
      ["page.html", "ready", "Comets"],
      ["sleep notes.txt", "ready", SLEEP],
      ["tides.md", "ready", "Tides and the moon"],
    ]);
    for (const d of docs) expect(d.chars).toBeGreaterThan(20);
    expect(leftovers(srv)).toMatchObject({ rows: 0, spooled: 0 });

    const key = async (m: Member) => ((await call(m, "POST", "/api/console/keys", {})).body as any).key as string;
    const asked = async (m: Member) =>
      (await (await query(srv.url, await key(m), { query: "what raises spring tides?" })).json()) as any;
    const mine = await asked(a);
    expect(mine.sources.map((s: any) => [s.type, s.collection, s.doc_id])).toContainEqual([
      "local",
      "notes",
      "tides.md",
    ]);
    const theirs = await asked(b);
    expect(JSON.stringify(theirs)).not.toContain("tides.md");
    expect(JSON.stringify(theirs)).not.toContain("tidal bulges");
  });

  test("a file that claims one format and is another fails alone, with its reason; the rest of the upload goes on", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const r = await upload(a, "notes", [
      { name: "report.pdf", data: "<!doctype html><html><body>not a pdf at all</body></html>" },
      { name: "photo.txt", data: png },
      { name: "nul.md", data: new Uint8Array([104, 105, 0, 0, 1, 2, 3, 0]) },
      { name: "corpus.jsonl.gz", data: '{"id":"x","text":"plain, not gzip"}\n' },
      { name: "broken.pdf", data: "%PDF-1.4\nthis is not really a pdf\n%%EOF" },
      { name: "fine.md", data: "# Fine\n\nA good note about estuaries and salt marshes." },
    ]);
    expect(r.status).toBe(202);
    const docs = await settled(a, "notes");
    expect(docOf(docs, "fine.md")).toMatchObject({ status: "ready", title: "Fine" });
    const failed = Object.fromEntries(docs.filter((d) => d.status === "failed").map((d) => [d.doc_id, d.error]));
    expect(failed).toEqual({
      "report.pdf": "not a PDF: it is HTML (named .pdf)",
      "photo.txt": "not text: it is a PNG image (named .txt)",
      "nul.md": "holds NUL bytes: binary, not text",
      "corpus.jsonl.gz": "not gzip-compressed: it is something else (named .jsonl.gz)",
      "broken.pdf": expect.stringMatching(/^cannot read the PDF \(encrypted or damaged\)/),
    });
    for (const id of Object.keys(failed)) expect(docOf(docs, id)).toMatchObject({ title: id, chars: 0 });
    // Nothing of a failed file is stored or kept.
    expect(leftovers(srv)).toMatchObject({ rows: 5, spooled: 0 });
    const removed = await call(a, "DELETE", at("notes", "report.pdf"));
    expect([removed.status, removed.body]).toEqual([200, { doc_id: "report.pdf" }]);
    expect(docOf(await settled(a, "notes"), "report.pdf")).toBeUndefined();
    // Uploading a name again replaces its failed row.
    expect((await upload(a, "notes", [{ name: "photo.txt", data: "a photo's caption, as text" }])).status).toBe(202);
    expect(docOf(await settled(a, "notes"), "photo.txt")).toMatchObject({ status: "ready" });
  });

  test("JSONL: each record is a document by its id; a file with bad lines stays failed naming them, its good records stored", async () => {
    const lines = [
      JSON.stringify({ id: "rec-1", title: "Estuaries", text: "Estuaries mix fresh and salt water." }),
      "not json",
      JSON.stringify({ id: "rec-2", text: "Mangroves protect coasts from storm surges." }),
      JSON.stringify({ text: "no id here" }),
    ].join("\n");
    const r = await upload(b, "notes", [
      {
        name: "good.jsonl",
        data: `${JSON.stringify({ _id: "beir-7", title: "Kelp", text: "Kelp forests grow fast." })}\n`,
      },
      { name: "mixed.jsonl", data: lines },
      { name: "empty.jsonl", data: "\n\n" },
    ]);
    expect(r.status).toBe(202);
    const docs = await settled(b, "notes");
    expect(docs.filter((d) => d.status === "ready").map((d) => [d.doc_id, d.title, d.format])).toEqual([
      ["beir-7", "Kelp", "jsonl"],
      ["rec-1", "Estuaries", "jsonl"],
      ["rec-2", "rec-2", "jsonl"],
    ]);
    expect(docOf(docs, "good.jsonl")).toBeUndefined();
    expect(docOf(docs, "mixed.jsonl")).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/^2 documents stored; 2 records left out: line 2: not JSON .*; line 4: no "id"/),
    });
    expect(docOf(docs, "empty.jsonl")).toMatchObject({
      status: "failed",
      error: expect.stringContaining("no document"),
    });
  });

  test("the usage report shows storage used of the plan's allowance", async () => {
    const usage = await conforms(await a.c.req("GET", "/api/console/usage"), "/api/console/usage", "get", 200);
    const stored = (await settled(a, "notes")).filter((d) => d.status === "ready");
    expect(usage.storage.documents).toEqual({ limit: 1000, used: stored.length, remaining: 1000 - stored.length });
    expect(usage.storage.bytes.limit).toBe(52428800);
    expect(usage.storage.bytes.used).toBeGreaterThan(stored.reduce((n, d) => n + d.chars, 0) - 1);
  });
});

describe("who may upload where", () => {
  test("only the caller's own collection: another's private or shared one, or a missing one, is 404; nothing is created", async () => {
    expect((await call(b, "POST", "/api/console/collections", { name: "wiki", visibility: "shared" })).status).toBe(
      201,
    );
    const file = [{ name: "x.md", data: "# X" }];
    for (const [m, name] of [
      [a, "wiki"],
      [a, "nowhere"],
    ] as const) {
      const r = await upload(m, name, file);
      expect([name, r.status, codeOf(r)]).toEqual([name, 404, "collection_not_found"]);
    }
    const ownerQuery = await upload(a, `notes?owner=${encodeURIComponent(b.email)}`, file);
    expect(ownerQuery.status).toBe(404);
    const names = (await call(a, "GET", "/api/console/collections")).body.collections.map((c: any) => c.name);
    expect(names).not.toContain("nowhere");
    expect(leftovers(srv).spooled).toBe(0);
  });

  test("no session: 401; another site's page: 403 CROSS_SITE_REQUEST; both before the body is read", async () => {
    const anon = await upload({ ...a, c: Object.assign(Object.create(a.c), { cookie: null }) }, "notes", [
      { name: "x.md", data: "x" },
    ]);
    expect([anon.status, codeOf(anon)]).toEqual([401, "unauthorized"]);
    const cross = await upload(a, "notes", [{ name: "x.md", data: "x" }], { "sec-fetch-site": "cross-site" });
    expect([cross.status, codeOf(cross)]).toEqual([403, "CROSS_SITE_REQUEST"]);
    const origin = await upload(a, "notes", [{ name: "x.md", data: "x" }], { origin: "https://evil.example" });
    expect([origin.status, codeOf(origin)]).toEqual([403, "CROSS_SITE_REQUEST"]);
    expect(docOf(await settled(a, "notes"), "x.md")).toBeUndefined();
  });
});
