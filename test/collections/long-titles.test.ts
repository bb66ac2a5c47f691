import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importPaths } from "../../src/corpus/import/import-paths.ts";
import { Bm25 } from "../../src/research/rank/bm25.ts";
import { terms } from "../../src/research/rank/tokenize.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { MAX_TITLE_CHARS } from "../../src/text/title.ts";
import { sharedCollection } from "../corpus/collections-helpers.ts";
import { query } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { call, type Member, member } from "./collection-calls.ts";
import { docOf, settled, startUploadServer, upload } from "./uploads/upload-calls.ts";

useLongTimeout();

// Words of a title no one would write: megabytes of them once made ranking quadratic (title × passages).
const words = (n: number, w = "tidal") => Array.from({ length: n }, (_, i) => `${w}${i % 97}`).join(" ");
const BODY = Array.from(
  { length: 400 },
  (_, i) =>
    `Paragraph ${i}: the moon's gravity raises two tidal bulges, and spring tides follow the new and full moon.`,
).join("\n\n");
// A JSONL record whose title is 3 MB; a Markdown file whose first heading is 30,000 words.
const JSONL = `${JSON.stringify({ id: "huge-title", title: words(500_000).slice(0, 3_000_000), text: BODY })}\n`;
const MARKDOWN = `# ${words(30_000)}\n\n${BODY}`;

const srv = startUploadServer({}, { realEngine: true });
let a: Member;
beforeAll(async () => {
  a = await member(srv.url, "a");
  await call(a, "POST", "/api/console/collections", { name: "notes" });
});
afterAll(() => srv.stop(100));

describe("a title is capped wherever it comes from, and ranking reads it once", () => {
  test("uploads: a 3 MB JSONL title and a 30,000-word heading are stored cut; a run over them answers", async () => {
    expect(JSONL.length).toBeGreaterThan(3_000_000);
    const r = await upload(a, "notes", [
      { name: "records.jsonl", data: JSONL },
      { name: "heading.md", data: MARKDOWN },
    ]);
    expect(r.status).toBe(202);
    const docs = await settled(a, "notes");
    for (const id of ["huge-title", "heading.md"]) {
      expect(docOf(docs, id)).toMatchObject({ status: "ready" });
      expect(docOf(docs, id).title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
      expect(docOf(docs, id).title).toStartWith("tidal0 tidal1 tidal2");
    }
    const key = ((await call(a, "POST", "/api/console/keys", {})).body as any).key as string;
    const answer = (await (await query(srv.url, key, { query: "what raises spring tides?" })).json()) as any;
    expect(answer.status).toBe("ok");
    expect(answer.sources.map((s: any) => s.doc_id).sort()).toEqual(["heading.md", "huge-title"]);
    for (const s of answer.sources) expect(s.title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
  });

  test("corpus add: the same JSONL title is stored cut", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-titles-"));
    const store = openSqliteStore(":memory:");
    try {
      writeFileSync(join(dir, "records.jsonl"), JSONL);
      writeFileSync(join(dir, "heading.md"), MARKDOWN);
      const c = await sharedCollection(store, "notes");
      await importPaths(store, [dir], { collection: { id: c.id, name: c.name } });
      const titles = (await store.corpus.documents(c.id)).map((d) => d.title.length);
      expect(titles).toHaveLength(2);
      for (const n of titles) expect(n).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("rank selection reads each title once, not once per passage", () => {
    // A long title (as web pages or older collections may still bring) shared by 500 passages.
    const title = words(30_000);
    const passages = Array.from({ length: 500 }, (_, i) => `Passage ${i} about spring tides and the moon.`);
    const bm = new Bm25(passages, { headings: [title], heading: passages.map(() => 0) });
    const own = passages.reduce((n, p) => n + terms(p).length, 0);
    expect(bm.termsRead).toBe(own + terms(title).length);
    // Scored as if the title stood before each passage.
    const joined = new Bm25(passages.slice(0, 3).map((p) => `${title}\n${p}`)).scores("tidal5 tides");
    const shared = new Bm25(passages.slice(0, 3), { headings: [title], heading: [0, 0, 0] }).scores("tidal5 tides");
    for (const [i, s] of shared.entries()) expect(s).toBeCloseTo(joined[i]!, 10);
  });
});
