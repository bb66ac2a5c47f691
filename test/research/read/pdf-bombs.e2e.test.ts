import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipBomb, pdfBomb } from "../../fixtures/bombs.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";
import { spawnServe } from "../../helpers/serve-process.ts";
import { keyedClient, query } from "../../helpers/server.ts";
import { readSse } from "../../helpers/sse.ts";
import { mcpSession, textOf } from "../../mcp/mcp-client.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

const MAIN = join(import.meta.dir, "../../../src/cli/main.ts");
const ARTICLE =
  "<!doctype html><html><head><title>Base editing</title></head><body><article><h1>Base editing</h1>" +
  "<p>Base editors change a single DNA letter without cutting both strands of the double helix, so they cause fewer insertions and deletions than nuclease editing.</p>" +
  "<p>Cytosine base editors convert C to T; adenine base editors convert A to G, correcting many point mutations.</p></article></body></html>";

/** Peak resident memory of a child process so far (VmHWM), in MiB. */
const peakMiB = async (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(await Bun.file(`/proc/${pid}/status`).text())?.[1] ?? 0) / 1024;

/** Reads a child's peak memory every 50 ms until it exits: /proc forgets it then. */
async function peakUntilExit(p: { pid: number; exited: Promise<number> }): Promise<number> {
  let peak = 0;
  let done = false;
  p.exited.then(() => {
    done = true;
  });
  while (!done) {
    peak = Math.max(peak, await peakMiB(p.pid).catch(() => peak));
    await Bun.sleep(50);
  }
  return peak;
}

// A 400 KB PDF whose one page inflates to 400 MiB: unchecked, pdf.js holds it whole (about 2 GB resident).
let bomb: Uint8Array;
// The same page as /ASCII85Decode over /FlateDecode (500 KB), a chain the stream check cannot undo:
// only the parse workers' memory watchdog stops it.
let chained: Uint8Array;
let pages: ReturnType<typeof Bun.serve>;
let search: SearchFixtures;
beforeAll(async () => {
  bomb = await pdfBomb(400 * 1048576);
  chained = await pdfBomb(400 * 1048576, { ascii85: true });
  pages = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new URL(req.url).pathname.endsWith(".pdf")
        ? new Response((new URL(req.url).pathname === "/chained.pdf" ? chained : bomb) as BodyInit, {
            headers: { "content-type": "application/pdf" },
          })
        : new Response(ARTICLE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  search = startSearchFixtures(`http://127.0.0.1:${pages.port}`);
  search.setWeb([
    { title: "Base editing, the PDF", url: "/bomb.pdf", snippet: "Base editors change one DNA letter." },
    { title: "Base editing", url: "/article.html", snippet: "Base editors avoid double-strand breaks." },
  ]);
});
afterAll(() => {
  pages.stop(true);
  search.stop();
});

describe("PDF bombs", () => {
  test("in search results: the run completes, the PDF is skipped as too large, the server's memory stays bounded", async () => {
    expect(bomb.length).toBeLessThan(1048576);
    const { events, peak } = await serveRun();
    console.log(`server peak ${peak} MiB`);
    expect(events.at(-1)?.event).toBe("final");
    expect(events.at(-1)?.data.status).toBe("ok");
    const read = events.filter((e) => e.event === "progress" && e.data.stage === "reading");
    expect(read.find((e) => e.data.url?.endsWith("/bomb.pdf"))?.data).toMatchObject({ reason: "too_large" });
    expect(read.find((e) => e.data.url?.endsWith("/article.html"))?.data).toMatchObject({ used: "page" });
    // Unchecked, the parse worker inflates the page whole: 444 MiB to 2 GB resident, by how far pdf.js gets.
    expect(peak).toBeLessThan(300);
  });

  test("corpus add: the PDF is skipped with its reason, the rest imported, peak memory bounded", async () => {
    const { said, peak } = await corpusAddWith("bomb.pdf", bomb);
    console.log(`corpus add peak ${peak} MiB`);
    expect(said).toContain("bomb.pdf");
    expect(said).toContain("a stream inflates past 32 MiB (a PDF bomb?): not read");
    expect(said).toMatch(/1 added/);
    expect(peak).toBeLessThan(400);
  });

  test("corpus add of a gzip bomb (.jsonl.gz expanding to 256 MiB): stopped at its expansion limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-gz-bomb-"));
    try {
      writeFileSync(join(dir, "bomb.jsonl.gz"), await gzipBomb(256 * 1048576));
      const { said, code } = await cliRun(dir, ["corpus", "add", join(dir, "bomb.jsonl.gz"), "--shared"]);
      // 100 times its size, at least 64 MiB: the limit uploads have (src/corpus/import/jsonl-lines.ts).
      expect(said).toContain("expands past 64 MiB (a gzip bomb?)");
      expect(code).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The CLI run in `dir` until it exits: what it said, its exit code and its peak memory. */
async function cliRun(dir: string, args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn(["bun", MAIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH!, HOME: dir, DATABASE_PATH: join(dir, "rq.db"), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, peak] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    peakUntilExit(p),
  ]);
  return { said: out + err, code: await p.exited, peak };
}

/** `corpus add` of a folder holding the file `name` and a Markdown file after it. */
async function corpusAddWith(name: string, bytes: Uint8Array) {
  const dir = mkdtempSync(join(tmpdir(), "rq-pdf-bomb-"));
  const docs = join(dir, "docs");
  try {
    mkdirSync(docs);
    writeFileSync(join(docs, name), bytes);
    writeFileSync(join(docs, "after.md"), "# After\n\nThe file after the bomb is imported as usual.");
    return await cliRun(dir, ["corpus", "add", docs, "--shared"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A research run through a `serve` child process: its events, and the server's peak memory after it. */
async function serveRun(env: Record<string, string> = {}) {
  const {
    proc: p,
    base,
    dir,
  } = await spawnServe({
    SEARXNG_URL: search.urls.searxng,
    ACADEMIC_PROVIDERS: "none",
    FETCH_ALLOW_PRIVATE: "true",
    ...env,
  });
  try {
    const { key } = await keyedClient(base);
    const { events } = await readSse(
      await query(base, key, { query: "How do base editors work?" }, {}, "/api/query/stream"),
    );
    return { events, peak: await peakMiB(p.pid) };
  } finally {
    p.kill();
    await p.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("PDF bombs the stream check cannot measure (ASCII85 over Flate)", () => {
  test("in search results: the parse worker is stopped at PARSE_MEMORY_MB, the PDF skipped as too large, the run completes", async () => {
    expect(chained.length).toBeLessThan(1048576);
    search.setWeb([
      { title: "Base editing, the PDF", url: "/chained.pdf", snippet: "Base editors change one DNA letter." },
      { title: "Base editing", url: "/article.html", snippet: "Base editors avoid double-strand breaks." },
    ]);
    const { events, peak } = await serveRun();
    console.log(`server peak ${peak} MiB`);
    expect(events.at(-1)?.event).toBe("final");
    expect(events.at(-1)?.data.status).toBe("ok");
    const read = events.filter((e) => e.event === "progress" && e.data.stage === "reading");
    expect(read.find((e) => e.data.url?.endsWith("/chained.pdf"))?.data).toMatchObject({ reason: "too_large" });
    expect(read.find((e) => e.data.url?.endsWith("/article.html"))?.data).toMatchObject({ used: "page" });
    // Unwatched, pdf.js holds the 400 MiB page whole (main: 916 MiB); stopped at 256 MiB of growth.
    expect(peak).toBeLessThan(512);
  });

  test("corpus add: the PDF's worker is stopped, the file skipped with its reason, the rest imported", async () => {
    const { said, peak } = await corpusAddWith("chained.pdf", chained);
    console.log(`corpus add peak ${peak} MiB`);
    expect(said).toContain("chained.pdf: reading it took more than 256 MiB of memory (a PDF bomb?): not read");
    expect(said).toMatch(/1 added/);
    expect(peak).toBeLessThan(512);
  });

  test("extract URL: the worker is stopped at PARSE_MEMORY_MB and the command fails saying why, peak memory bounded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-pdf-extract-"));
    try {
      const url = `http://127.0.0.1:${pages.port}/chained.pdf`;
      const { said, code, peak } = await cliRun(dir, ["extract", url], { FETCH_ALLOW_PRIVATE: "true" });
      console.log(`extract peak ${peak} MiB`);
      expect(code).not.toBe(0);
      expect(said).toContain("a PDF bomb?");
      // Read on the calling thread, pdf.js holds the 400 MiB page whole.
      expect(peak).toBeLessThan(512);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("MCP extract (local mode): the worker is stopped, the tool answers too_large saying why", async () => {
    const mcp = await mcpSession([], { FETCH_ALLOW_PRIVATE: "true", DATABASE_PATH: "./none.db" });
    try {
      const r = await mcp.client.callTool({
        name: "extract",
        arguments: { url: `http://127.0.0.1:${pages.port}/chained.pdf` },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toStartWith("too_large: ");
      expect(textOf(r)).toContain("a PDF bomb?");
    } finally {
      await mcp.close();
    }
  });
});
