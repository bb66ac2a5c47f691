import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount } from "../../src/auth/accounts.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import type { CollectionSummary } from "../../src/store/types.ts";
import { putDocs, textDoc } from "../corpus/search/search-helpers.ts";
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

/** The shared documents above, and Alice's private diary with a note on otters; Bob has nothing. */
async function withPrivate(): Promise<string> {
  const path = database();
  const s = openSqliteStore(path);
  const alice = await createAccount(s, "alice@team.example", null, "free");
  await createAccount(s, "bob@team.example", null, "free");
  const diary = s.corpus.createCollection({
    name: "diary",
    ownerId: alice.id,
    visibility: "private",
  }) as CollectionSummary;
  s.corpus.put(diary.id, [
    textDoc("otter-secret.md", "Otter sightings", "Sleeping otters seen at the harbour at dawn."),
  ]);
  s.close();
  return path;
}

describe("corpus search and private collections", () => {
  const env = async () => ({ DATABASE_PATH: await withPrivate() });
  const ids = (out: string) => (JSON.parse(out).results as { doc_id: string }[]).map((r) => r.doc_id);

  test("without --owner a private collection's document is never a hit; with its owner's address it is", async () => {
    const e = await env();
    const shared = await cli(["corpus", "search", "sleeping otters", "--json"], e);
    expect(shared.code).toBe(0);
    expect(ids(shared.out)).toEqual(["otters.md"]);
    expect(shared.out).not.toContain("diary");
    const plain = await cli(["corpus", "search", "harbour dawn"], e);
    expect([plain.out, plain.err]).toEqual(["", "no matching documents\n"]);
    const bob = await cli(["corpus", "search", "sleeping otters", "--json", "--owner", "bob@team.example"], e);
    expect(ids(bob.out)).toEqual(["otters.md"]);
    const batch = await cli(["corpus", "search", "-"], e, '{"id":1,"text":"otters harbour"}\n');
    expect(batch.out).not.toContain("otter-secret");

    const alice = await cli(["corpus", "search", "sleeping otters", "--json", "--owner", "alice@team.example"], e);
    expect(ids(alice.out).sort()).toEqual(["otter-secret.md", "otters.md"]);
    const both = ["--owner", "bob@team.example", "--owner", "alice@team.example"];
    const diary = await cli(["corpus", "search", "otters", "--json", "--collection", "diary", ...both], e);
    expect(JSON.parse(diary.out).results).toEqual([
      expect.objectContaining({ doc_id: "otter-secret.md", collection: "diary" }),
    ]);
    const closed = await cli(["corpus", "search", "otters", "--json", "--collection", "diary"], e);
    expect(JSON.parse(closed.out).results).toEqual([]);
  });

  test("an --owner no account has is a usage error naming it", async () => {
    const r = await cli(["corpus", "search", "otters", "--owner", "carol@team.example"], await env());
    expect(r.code).toBe(2);
    expect(r.err).toStartWith("research-query corpus search: no account has the email carol@team.example\n");
  });
});
