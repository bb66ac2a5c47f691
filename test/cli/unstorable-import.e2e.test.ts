import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonl } from "../corpus/import/import-fixtures.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const temp = () => mkdtempSync(join(tmpdir(), "rq-unstorable-"));

/** Where `corpus add` writes: a SQLite file, or a fresh PostgreSQL database where its server runs. */
const targets: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: "sqlite", env: async () => ({ DATABASE_PATH: join(temp(), "rq.db") }) },
  ...(postgresTests ? [{ name: "postgres", env: async () => ({ DATABASE_URL: await freshDatabase() }) }] : []),
];

// A JSONL file carries both as JSON escapes: JSON.stringify writes "\u0000" and "\ud800".
const records = [
  { id: "moon", title: "Tides", text: "The moon pulls the sea twice a day." },
  { id: "nul", title: "Null bytes", text: "Lighthouses\u0000 guide ships past the reef at night." },
  { id: "lone", title: "Half \ud800 pair", text: "Glaciers carve valleys \udc00 over thousands of years." },
  { id: "bad\u0000id", title: "Named with NUL", text: "Volcanoes build islands." },
];

for (const target of targets) {
  describe(`corpus add of text a database cannot hold, on ${target.name}`, () => {
    test("NUL and unpaired surrogates in a record's text are cleaned, an id holding one is skipped by its line", async () => {
      const env = await target.env();
      const file = join(temp(), "docs.jsonl");
      writeFileSync(file, jsonl(records));
      const add = await cli(["corpus", "add", file, "--collection", "notes", "--shared"], env);
      expect(add.err).toContain(`skipped: ${file}:4: "id" holds U+0000 (NUL) or an unpaired surrogate`);
      expect(add.out).toMatch(/^notes: 3 added, 0 replaced, 0 unchanged, 1 skipped in /);
      expect(add.code).toBe(0);

      const found = async (q: string) => {
        const r = await cli(["corpus", "search", q, "--json", "--limit", "1"], env);
        expect(r.code).toBe(0);
        return (JSON.parse(r.out) as { results: { doc_id: string; title: string; snippet: string }[] }).results[0];
      };
      expect(await found("lighthouses reef")).toMatchObject({
        doc_id: "nul",
        snippet: expect.stringContaining("Lighthouses guide ships"),
      });
      expect(await found("glaciers valleys")).toMatchObject({
        doc_id: "lone",
        title: "Half \ufffd pair",
        snippet: expect.stringContaining("valleys \ufffd over"),
      });
    });
  });
}
