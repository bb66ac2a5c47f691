import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { putDocs } from "../corpus/search-helpers.ts";
import { cli } from "./run-cli.ts";

// The import command is another piece of work: documents go in through the store directly.
function database(): string {
  const path = join(mkdtempSync(join(tmpdir(), "rq-corpus-")), "rq.db");
  const s = openSqliteStore(path);
  putDocs(s, [
    ["otters.md", "Sea otters", "Sea otters hold hands while they sleep so they do not drift apart."],
    ["walrus.md", "Walrus tusks", "A walrus uses its tusks to haul itself out of the water onto ice."],
    ["weather.md", "Weather", "Rain and wind in the north, sun in the south this weekend."],
  ]);
  s.close();
  return path;
}

describe("corpus search", () => {
  const env = { DATABASE_PATH: database() };

  test("QUERY prints ranked documents with a snippet", async () => {
    const r = await cli(["corpus", "search", "sleeping otters"], env);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^1\. [\d.]+ {2}otters\.md {2}Sea otters {2}\[default\]\n {3}Sea otters hold hands/);
    expect(r.out).not.toContain("walrus");
  });

  test("--json answers {results: [...]}", async () => {
    const r = await cli(["corpus", "search", "walrus ice", "--json", "--limit", "1"], env);
    expect(r.code).toBe(0);
    const { results } = JSON.parse(r.out);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ doc_id: "walrus.md", collection: "default", title: "Walrus tusks" });
    expect(results[0].snippet).toContain("haul itself out");
    expect(results[0].score).toBeGreaterThan(0);
  });

  test("- answers JSONL queries line by line and reports a bad line with its number", async () => {
    const input = [
      '{"id":"q1","text":"otters"}',
      "{not json",
      '{"id":7,"text":"walrus tusks"}',
      '{"text":"no id"}',
    ].join("\n");
    const r = await cli(["corpus", "search", "-"], env, input);
    expect(r.code).toBe(0);
    const lines = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(["q1", 7]);
    expect(lines[0].results[0]).toEqual({ doc_id: "otters.md", title: "Sea otters", score: expect.any(Number) });
    expect(lines[1].results[0].doc_id).toBe("walrus.md");
    expect(r.err).toContain("line 2:");
    expect(r.err).toContain("line 4:");
  });

  test("a bad --limit is a usage error", async () => {
    const r = await cli(["corpus", "search", "otters", "--limit", "0"], env);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--limit");
  });
});
