import { describe, expect, test } from "bun:test";
import { closeSync, openSync, statSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { searchCorpus } from "../../../src/corpus/search/search-corpus.ts";
import { tinyPdf } from "../../fixtures/tiny-pdf.ts";
import { useLongTimeout } from "../../setup.ts";
import { docsOf } from "../collections-helpers.ts";
import { encryptedPdf, gz, importer, jsonl, tempDir, writeTree } from "./import-fixtures.ts";

useLongTimeout();

const GOOD = "Reliable text about tidal power and the estuaries where barrages have been built since the 1960s.";
const messageOf = (problems: { path: string; message: string }[], end: string) =>
  problems.filter((p) => p.path.endsWith(end)).map((p) => p.message);

describe("bad input is reported and skipped; the import goes on", () => {
  test("binary named .txt, encrypted and broken PDFs, an empty file, a missing path", async () => {
    const random = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256);
    const noNul = random.map((b) => b || 1);
    const dir = writeTree(tempDir(), {
      "good.txt": GOOD,
      "garbage.txt": random,
      "garbage-no-nul.md": noNul,
      "locked.pdf": encryptedPdf(),
      "broken.pdf": "%PDF-1.4\nthis is not really a PDF",
      "empty.txt": "",
      "blank.md": "\n\n   \n",
    });
    const { store, problems, run } = importer();
    const missing = join(dir, "no-such-folder");
    const s = await run([dir, missing]);
    expect(s).toMatchObject({ added: 1, skipped: 6, failedPaths: [missing], interrupted: false });
    expect(messageOf(problems, "garbage.txt")).toEqual(["holds NUL bytes: binary, not text"]);
    expect(messageOf(problems, "garbage-no-nul.md")).toEqual(["mostly control characters: binary, not text"]);
    expect(messageOf(problems, "locked.pdf")).toEqual([
      "cannot read the PDF (encrypted or damaged): No password given",
    ]);
    expect(messageOf(problems, "broken.pdf")[0]).toStartWith("cannot read the PDF (encrypted or damaged): ");
    expect(messageOf(problems, "empty.txt")).toEqual(["empty file"]);
    expect(messageOf(problems, "blank.md")).toEqual(["no text in the file"]);
    expect(messageOf(problems, "no-such-folder")).toEqual(["no such file or folder"]);
    expect(problems.every((p) => p.skipped)).toBe(true);
    expect((await docsOf(store, "test")).map((d) => d.docId)).toEqual(["good.txt"]);
  });

  test("nothing already imported is lost when a later import meets bad input", async () => {
    const { store, run } = importer();
    const first = writeTree(tempDir(), { "a.txt": GOOD, "b.pdf": tinyPdf([GOOD]) });
    await run([first]);
    const second = writeTree(tempDir(), { "a.txt": new Uint8Array([0, 1, 2, 3]), "c.jsonl": "{oops\n" });
    const s = await run([second]);
    expect(s).toMatchObject({ added: 0, skipped: 2, failedPaths: [second] });
    expect((await docsOf(store, "test")).map((d) => d.docId)).toEqual(["a.txt", "b.pdf"]);
  });

  test("a 200 MB text file is cut at the cap, reading only what the cap needs", async () => {
    const file = join(tempDir(), "huge.txt");
    // 8 MB of real text, then a sparse hole to 200 MB: nothing past the cap's bytes is ever read.
    const fd = openSync(file, "w");
    const block = Buffer.from(`${GOOD}\n`.repeat(10_000));
    for (let written = 0; written < 8_000_000; written += block.length) writeSync(fd, block);
    closeSync(fd);
    truncateSync(file, 200 * 1024 * 1024);
    expect(statSync(file).size).toBe(209_715_200);
    const { store, problems, run } = importer();
    const rss = process.memoryUsage().rss;
    const s = await run([file]);
    expect(process.memoryUsage().rss - rss).toBeLessThan(150 * 1024 * 1024);
    expect(s).toMatchObject({ added: 1, skipped: 0 });
    expect(problems).toEqual([
      { path: file, line: undefined, message: "longer than 2,000,000 characters: cut there", skipped: false },
    ]);
    const [doc] = await docsOf(store, "test");
    expect(doc!.truncated).toBe(true);
    // Passages drop the line breaks they are split on: a little under the cap, never over.
    expect(doc!.chars).toBeGreaterThan(1_900_000);
    expect(doc!.chars).toBeLessThanOrEqual(2_000_000);
  });

  test("invalid UTF-8: a legacy 8-bit file is read as Windows-1252, stray bad bytes become U+FFFD", async () => {
    const dir = writeTree(tempDir(), {
      "latin1.txt": Buffer.from(`Crème brûlée recipes from the café on the corner. ${GOOD}`, "latin1"),
      "damaged.txt": Buffer.concat([
        Buffer.from(`Naïve start. ${GOOD} `),
        Buffer.from([0xc3, 0x28]),
        Buffer.from(" end"),
      ]),
    });
    const { store, problems, run } = importer();
    expect(await run([dir])).toMatchObject({ added: 2, skipped: 0 });
    expect(messageOf(problems, "latin1.txt")).toEqual(["not UTF-8: read as Windows-1252"]);
    expect(messageOf(problems, "damaged.txt")).toEqual(["invalid UTF-8 in 1 place (replaced with U+FFFD)"]);
    expect((await searchCorpus(store, "crème brûlée", { collections: null, limit: 1 }))[0]?.docId).toBe("latin1.txt");
    expect((await searchCorpus(store, "naïve", { collections: null, limit: 1 }))[0]?.docId).toBe("damaged.txt");
  });

  test("JSONL: bad lines are named by line number and skipped; a repeated id keeps the last", async () => {
    const lines = [
      JSON.stringify({ id: "a", title: "First a", text: `Old version. ${GOOD}` }),
      "{not json",
      "[1, 2]",
      JSON.stringify({ title: "no id", text: GOOD }),
      "",
      JSON.stringify({ id: "b", text: 17 }),
      JSON.stringify({ id: "c", title: "", text: "  " }),
      JSON.stringify({ id: "a", title: "Second a", text: `Revised sturgeon version. ${GOOD}`, url: "ftp://x" }),
      JSON.stringify({ id: "d", title: "D", text: GOOD }),
    ];
    const file = join(tempDir(), "mixed.jsonl");
    writeFileSync(file, lines.join("\n"));
    const { store, problems, run } = importer();
    const s = await run([file]);
    expect(s).toMatchObject({ added: 2, replaced: 0, skipped: 5 });
    expect(problems.map((p) => [p.line, p.skipped, p.message.replace(/^(not JSON|no "id") \(.*\)/, "$1 (…)")])).toEqual(
      [
        [2, true, "not JSON (…)"],
        [3, true, "not a JSON object"],
        [4, true, 'no "id" (…)'],
        [6, true, '"text" is not a string'],
        [7, true, "no text for id c"],
        [8, false, '"url" is not an http(s) URL: left out'],
        [8, false, 'id "a" repeats line 1: the later one is kept'],
      ],
    );
    const docs = await docsOf(store, "test");
    expect(docs.map((d) => [d.docId, d.title])).toEqual([
      ["a", "Second a"],
      ["d", "D"],
    ]);
    expect((await searchCorpus(store, "sturgeon", { collections: null, limit: 5 })).map((h) => h.docId)).toEqual(["a"]);
  });

  test("JSONL: an over-long line is skipped, a long text cut; a file of garbage lines is shown in part", async () => {
    const dir = writeTree(tempDir(), {
      "long.jsonl": jsonl([
        { id: "huge", text: "x".repeat(70_000) },
        { id: "cut", text: `${GOOD} ${GOOD}` },
      ]),
      "junk.jsonl": "not json\n".repeat(50),
    });
    const { problems, run } = importer();
    const s = await run([dir], { maxChars: 100 });
    expect(s).toMatchObject({ added: 1, skipped: 51 });
    expect(messageOf(problems, "long.jsonl")).toEqual([
      "line longer than 66,136 characters",
      "text longer than 100 characters: cut there",
    ]);
    const junk = messageOf(problems, "junk.jsonl");
    expect(junk).toHaveLength(21);
    expect(junk.at(-1)).toBe("30 more problems in this file not shown");
  });

  test("a damaged .jsonl.gz keeps the lines before the damage", async () => {
    const records = Array.from({ length: 2000 }, (_, i) => ({ id: `r${i}`, text: `Record ${i}: ${GOOD}` }));
    const whole = gz(jsonl(records));
    const file = join(tempDir(), "cut.jsonl.gz");
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    const { store, problems, run } = importer();
    const s = await run([file]);
    expect(s.added).toBeGreaterThan(0);
    expect(s.added).toBeLessThan(2000);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^could not be read after line \d+ .*: the rest of the file is left out$/);
    expect((await store.corpus.collections("all"))[0]!.documents).toBe(s.added);
  });

  test("two files with one base name, given directly: the later one is kept, with a message", async () => {
    const a = writeTree(tempDir(), { "notes.txt": `Alpha. ${GOOD}` });
    const b = writeTree(tempDir(), { "notes.txt": `Beta lighthouse. ${GOOD}` });
    const { store, problems, run } = importer();
    expect(await run([join(a, "notes.txt"), join(b, "notes.txt")])).toMatchObject({ added: 1, skipped: 0 });
    expect(problems.map((p) => p.message)).toEqual([
      `id "notes.txt" repeats ${join(a, "notes.txt")}: the later one is kept`,
    ]);
    const [doc] = await docsOf(store, "test");
    expect(doc!.path).toBe(join(b, "notes.txt"));
  });

  test("a folder of 2,000 small files imports in batches", async () => {
    const dir = tempDir();
    for (let i = 0; i < 2_000; i++)
      writeTree(dir, { [`n${i % 50}/note-${i}.txt`]: `Note ${i}\nAbout topic ${i % 37} and place ${i % 91}.` });
    const { store, run } = importer();
    // One store.corpus.put is one transaction: one per file would take tens of seconds here.
    // Counted, not timed: batches of hundreds make a handful.
    let puts = 0;
    const put = store.corpus.put.bind(store.corpus);
    store.corpus.put = (...args) => {
      puts++;
      return put(...args);
    };
    const s = await run([dir]);
    expect(puts).toBeGreaterThan(1);
    expect(puts).toBeLessThanOrEqual(50);
    expect(s).toMatchObject({ added: 2_000, skipped: 0 });
    expect((await store.corpus.collections("all"))[0]).toMatchObject({ documents: 2_000, passages: 2_000 });
  });
});
