import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { putInto } from "../corpus/collections-helpers.ts";
import { writeTree } from "../corpus/import/import-fixtures.ts";
import { FRAGMENT_SET, STORED_WITH_LINE_BREAKS } from "../fixtures/fragment-set.ts";
import { fragmentFaults } from "../helpers/fragment-check.ts";
import { closedPort } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const temp = () => mkdtempSync(join(tmpdir(), "rq-fragments-"));
/** An air-gapped box: no web provider answers, no academic database, only the collections. */
const offline = (db: string) => ({
  DATABASE_PATH: db,
  ACADEMIC_PROVIDERS: "none",
  SEARXNG_URL: `http://127.0.0.1:${closedPort()}`,
});

/** Asks each document's question with `ask --json` (no model) and returns the faults of each answer. */
async function askAll(env: Record<string, string>) {
  const out = [];
  for (const doc of FRAGMENT_SET) {
    const r = await cli(["ask", doc.question, "--json"], env);
    expect(r.code).toBe(0);
    const envelope = JSON.parse(r.out);
    expect(envelope.writer).toBe("extractive");
    out.push({ file: doc.file, answer: envelope.answer, ...fragmentFaults(envelope, FRAGMENT_SET) });
  }
  return out;
}

describe("answers without a model read on sentences (wrapped text, PDFs, Markdown)", () => {
  test("imported with corpus add: markers only after whole sentences, quotes and claims whole, no heading, code or table", async () => {
    const dir = writeTree(temp(), Object.fromEntries(FRAGMENT_SET.map((d) => [d.file, d.bytes])));
    const env = offline(join(temp(), "rq.db"));
    const add = await cli(["corpus", "add", dir, "--collection", "lab", "--shared"], env);
    expect(add.code).toBe(0);
    for (const a of await askAll(env)) {
      expect({
        file: a.file,
        markerInside: a.markerInside,
        cut: a.cut,
        apart: a.apart,
        claims: a.claims,
        quotes: a.quotes,
      }).toEqual({ file: a.file, markerInside: 0, cut: 0, apart: 0, claims: 0, quotes: 0 });
      // The document's own sentences are what answers its question.
      const doc = FRAGMENT_SET.find((d) => d.file === a.file)!;
      expect(a.pieces.some((p) => doc.sentences.includes(p))).toBe(true);
    }
  });

  test("a collection an earlier import stored with hard line breaks is read on sentences too", async () => {
    const db = join(temp(), "rq.db");
    const store = openSqliteStore(db);
    await putInto(
      store,
      "old",
      STORED_WITH_LINE_BREAKS.map((d) => ({
        docId: d.id,
        title: d.title,
        url: null,
        path: d.id,
        format: "text",
        contentHash: new Bun.CryptoHasher("sha256").update(d.text).digest("hex"),
        truncated: false,
        passages: [d.text],
      })),
    );
    store.close();
    const env = offline(db);
    for (const doc of FRAGMENT_SET.filter((d) => STORED_WITH_LINE_BREAKS.some((s) => s.id === d.file))) {
      const r = await cli(["ask", doc.question, "--json"], env);
      expect(r.code).toBe(0);
      const f = fragmentFaults(JSON.parse(r.out), FRAGMENT_SET);
      expect([doc.file, f.markerInside, f.cut, f.apart, f.claims, f.quotes]).toEqual([doc.file, 0, 0, 0, 0, 0]);
      expect(f.pieces.length).toBeGreaterThan(0);
    }
  });
});
