import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipBomb, pdfBomb } from "../../fixtures/bombs.ts";
import { useLongTimeout } from "../../setup.ts";
import { at, call, type Member, member } from "../collection-calls.ts";
import { docOf, leftovers, settled, startUploadServer, upload } from "./upload-calls.ts";

useLongTimeout();

// Real bombs through the real worker. Slow (building them compresses a GiB each): e2e tier.
const srv = startUploadServer({ IMPORT_MEMORY_MB: "256" });
let a: Member;
beforeAll(async () => {
  a = await member(srv.url, "a");
  await call(a, "POST", "/api/console/collections", { name: "notes" });
});
afterAll(() => srv.stop(100));

/** The highest resident memory above `base` while `work` runs, read every 20 ms (the worker never blocks this thread). */
async function peakDuring<T>(work: () => Promise<T>): Promise<{ value: T; peakMiB: number }> {
  Bun.gc(true);
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    return { value: await work(), peakMiB: Math.round((peak - base) / 1048576) };
  } finally {
    clearInterval(timer);
  }
}

describe("bombs are stopped with bounded memory", () => {
  test("a gzip bomb (.jsonl.gz expanding to 1 GiB): stopped at its expansion limit, the server serving meanwhile", async () => {
    const bomb = await gzipBomb(1024 ** 3);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const { value: docs, peakMiB } = await peakDuring(async () => {
      expect((await upload(a, "notes", [{ name: "bomb.jsonl.gz", data: bomb }])).status).toBe(202);
      expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
      return settled(a, "notes");
    });
    expect(docOf(docs, "bomb.jsonl.gz")).toMatchObject({
      status: "failed",
      // 100 times its size: the limit of a .jsonl.gz (src/collections/import/import-one.ts).
      error: `expands past ${Math.round((bomb.length * 100) / 1048576)} MiB (a gzip bomb?): not imported; split it, or upload it uncompressed`,
    });
    expect(peakMiB).toBeLessThan(200);
    expect(leftovers(srv).spooled).toBe(0);
  });

  test("a PDF bomb (a 1.3 MiB file whose page inflates to 1 GiB): its worker stopped at IMPORT_MEMORY_MB", async () => {
    // ASCII85 over Flate: the stream check (src/text/pdf-streams.ts) cannot measure it, the watchdog must stop it.
    const bomb = await pdfBomb(1024 ** 3, { ascii85: true });
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const { value: docs, peakMiB } = await peakDuring(async () => {
      expect(
        (
          await upload(a, "notes", [
            { name: "bomb.pdf", data: bomb },
            { name: "after.md", data: "# After" },
          ])
        ).status,
      ).toBe(202);
      // Serving while the worker inflates it.
      for (;;) {
        const list = (await call(a, "GET", `${at("notes")}/documents`)).body.documents;
        if (docOf(list, "bomb.pdf")?.status !== "queued") break;
        await Bun.sleep(10);
      }
      expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
      return settled(a, "notes");
    });
    expect(docOf(docs, "bomb.pdf")).toMatchObject({
      status: "failed",
      error: "reading it took more than 256 MiB of memory (a PDF or gzip bomb?): stopped, not imported",
    });
    expect(docOf(docs, "after.md")).toMatchObject({ status: "ready" });
    // Unchecked, pdf.js holds the inflated GiB and more (about 2 GiB resident); stopped, it stays near the limit.
    expect(peakMiB).toBeLessThan(700);
  });
});
