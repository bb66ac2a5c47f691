import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GATED_IMPORT_WORKER, importGate } from "../../fixtures/import-gate.ts";
import { query } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { at, call, type Member, member } from "../collection-calls.ts";
import { docOf, leftovers, settled, startUploadServer, upload } from "../uploads/upload-calls.ts";

useLongTimeout();

// The real worker behind a gate (a file named "gated…" waits for the test), a stall timer and a
// memory reading the test sets off on cue.
let stall: (() => void) | null = null;
let extraMemory = 0;
const srv = startUploadServer(
  {},
  {
    importWorker: {
      workerUrl: GATED_IMPORT_WORKER,
      stallTimer: (onStall) => {
        stall = onStall;
        return () => {
          if (stall === onStall) stall = null;
        };
      },
      rss: () => process.memoryUsage.rss() + extraMemory,
      memoryEveryMs: 10,
    },
  },
);
const gate = importGate();
let a: Member;
beforeAll(async () => {
  a = await member(srv.url, "a");
  await call(a, "POST", "/api/console/collections", { name: "notes" });
});
afterAll(async () => {
  gate.close();
  await srv.stop(100);
});

const imported = () => srv.logs.filter((l) => l.includes('"upload_imported"')).length;
/** Resolves once `n` imports have ended (the server logs each). */
async function importsEnded(n: number) {
  while (imported() < n) await Bun.sleep(10);
}

describe("imports in the background", () => {
  test("while a file is being imported the server answers /healthz and runs; the file shows indexing, then ready", async () => {
    expect((await upload(a, "notes", [{ name: "gated-1.md", data: "# Gated\n\nHeld by the test." }])).status).toBe(202);
    await gate.started("gated-1.md");
    expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
    const key = (await call(a, "POST", "/api/console/keys", {})).body.key;
    const run = await query(srv.url, key, { query: "does a run answer meanwhile?" });
    expect([run.status, ((await run.json()) as any).status]).toEqual([200, "ok"]);
    const list = (await call(a, "GET", `${at("notes")}/documents`)).body.documents;
    expect(docOf(list, "gated-1.md")).toEqual({
      doc_id: "gated-1.md",
      title: "gated-1.md",
      status: "indexing",
      chars: 0,
    });
    const collections = (await call(a, "GET", "/api/console/collections")).body.collections;
    expect(collections.find((c: any) => c.name === "notes").status).toBe("indexing");
    gate.open("gated-1.md");
    expect(docOf(await settled(a, "notes"), "gated-1.md")).toMatchObject({ status: "ready", title: "Gated" });
    expect((await call(a, "GET", "/api/console/collections")).body.collections[0].status).toBe("ready");
  });

  test("a document removed while it is imported is gone once the import ends", async () => {
    const n = imported();
    await upload(a, "notes", [{ name: "gated-2.md", data: "# Second\n\nRemoved mid-import." }]);
    await gate.started("gated-2.md");
    expect((await call(a, "DELETE", at("notes", "gated-2.md"))).status).toBe(200);
    gate.open("gated-2.md");
    await importsEnded(n + 1);
    expect(docOf(await settled(a, "notes"), "gated-2.md")).toBeUndefined();
    expect(leftovers(srv)).toMatchObject({ rows: 0, spooled: 0 });
  });

  test("an import that stops making progress is stopped and fails; the next file goes on", async () => {
    await upload(a, "notes", [
      { name: "gated-3.md", data: "never let through" },
      { name: "after.md", data: "# After\n\nImported once the stuck one is stopped." },
    ]);
    await gate.started("gated-3.md");
    stall!();
    const docs = await settled(a, "notes");
    expect(docOf(docs, "gated-3.md")).toMatchObject({ status: "failed", error: "no progress for 300 s: stopped" });
    expect(docOf(docs, "after.md")).toMatchObject({ status: "ready" });
  });

  test("an import whose memory grows past IMPORT_MEMORY_MB is stopped and fails with the reason", async () => {
    await upload(a, "notes", [{ name: "gated-4.pdf", data: "%PDF-1.4 as if it were a bomb" }]);
    await gate.started("gated-4.pdf");
    extraMemory = 2 * 1024 ** 3;
    const docs = await settled(a, "notes");
    extraMemory = 0;
    expect(docOf(docs, "gated-4.pdf")).toMatchObject({
      status: "failed",
      error: "reading it took more than 1024 MiB of memory (a PDF or gzip bomb?): stopped, not imported",
    });
    expect(leftovers(srv).spooled).toBe(0);
  });

  test("two uploads racing into one collection: one document per name, with one upload's text; nothing left in flight", async () => {
    for (let round = 0; round < 4; round++) {
      const [x, y] = await Promise.all([
        upload(a, "notes", [
          { name: "same.md", data: `# Same\n\nfrom upload x in round ${round}` },
          { name: `x${round}.md`, data: "x" },
        ]),
        upload(a, "notes", [
          { name: "same.md", data: `# Same\n\nfrom upload y in round ${round}` },
          { name: `y${round}.md`, data: "y" },
        ]),
      ]);
      expect([x.status, y.status]).toEqual([202, 202]);
      const docs = await settled(a, "notes");
      expect(docs.filter((d) => d.doc_id === "same.md")).toHaveLength(1);
      // Only the two files earlier tests failed on purpose are not ready.
      expect(docs.filter((d) => d.status !== "ready").map((d) => d.doc_id)).toEqual(["gated-3.md", "gated-4.pdf"]);
      for (const id of [`x${round}.md`, `y${round}.md`]) expect(docOf(docs, id)?.status).toBe("ready");
      const page = (await call(a, "GET", at("notes", "same.md"))).body;
      expect(page.passages[0].text).toMatch(new RegExp(`^Same from upload [xy] in round ${round}$`));
    }
    expect(leftovers(srv)).toMatchObject({ spooled: 0 });
  });
});

describe("the disk filling mid-import", () => {
  test("SQLITE_FULL: that file fails with the reason, nothing of it is written, the server keeps serving", async () => {
    const pages = (srv.sql.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    const passages = (srv.sql.query("SELECT count(*) AS n FROM corpus_passages").get() as { n: number }).n;
    const big = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} about estuaries, tides and salt marshes.`).join(
      "\n\n",
    );
    // Room for the upload's row, none for the document's passages and index.
    srv.sql.exec(`PRAGMA max_page_count = ${pages + 4}`);
    try {
      const r = await upload(a, "notes", [{ name: "big.md", data: `# Big\n\n${big}` }]);
      expect(r.status).toBe(202);
      const docs = await settled(a, "notes");
      expect(docOf(docs, "big.md")).toMatchObject({
        status: "failed",
        error: "the server's database is full (disk full): not stored; upload it again later",
      });
      expect((srv.sql.query("SELECT count(*) AS n FROM corpus_passages").get() as { n: number }).n).toBe(passages);
      expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
      expect((await call(a, "GET", "/api/console/collections")).status).toBe(200);
    } finally {
      srv.sql.exec("PRAGMA max_page_count = 1073741823");
    }
    expect((await upload(a, "notes", [{ name: "big.md", data: `# Big\n\n${big}` }])).status).toBe(202);
    expect(docOf(await settled(a, "notes"), "big.md")).toMatchObject({ status: "ready", title: "Big" });
  });

  test("no room even for the upload's row: 507 insufficient_storage, nothing stored", async () => {
    const before = leftovers(srv);
    const pages = (srv.sql.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    srv.sql.exec(`PRAGMA max_page_count = ${pages}`);
    try {
      // Enough rows to need a page more than the free ones.
      const files = Array.from({ length: 300 }, (_, i) => ({ name: `n${i}-${"x".repeat(200)}.md`, data: "n" }));
      const r = await upload(a, "notes", files);
      expect([r.status, r.body.errors[0].code]).toEqual([507, "insufficient_storage"]);
    } finally {
      srv.sql.exec("PRAGMA max_page_count = 1073741823");
    }
    expect(leftovers(srv)).toEqual(before);
  });
});
