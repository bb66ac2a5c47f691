import { describe, expect, test } from "bun:test";
import { RANKING } from "../../../src/corpus/search/search-corpus.ts";
import type { SearchTask } from "../../../src/corpus/search/search-messages.ts";
import { createSearchPool } from "../../../src/corpus/search/search-pool.ts";
import type { TaskRunner } from "../../../src/corpus/search/search-task.ts";

/** The search threads' failures (docs/decisions/0094-searches-off-the-event-loop.md). */
const inPlace: TaskRunner = async () => [{ seq: 0, text: "in place" }];
const passages: SearchTask = { type: "passages", documentId: 1, words: ["tide"], limit: 1 };
const rank: SearchTask = {
  type: "rank",
  query: { words: ["tide"], ranking: RANKING },
  collections: null,
  limit: 5,
  held: false,
};

describe("the search pool", () => {
  test("a thread that dies mid-job fails that job; the next job gets a new thread", async () => {
    const pool = createSearchPool({
      source: { backend: "sqlite", path: "/nonexistent" },
      fallback: () => inPlace,
      size: 1,
      workerUrl: new URL("../../fixtures/crashing-search-worker.ts", import.meta.url),
    });
    expect(await pool.run(passages)).toEqual([{ seq: 0, text: "from a thread" }]);
    await expect(pool.run(rank)).rejects.toThrow(/search thread crashed/);
    expect(await pool.run(passages)).toEqual([{ seq: 0, text: "from a thread" }]);
  });

  test("where no thread can start (its script is missing), jobs run in place", async () => {
    const pool = createSearchPool({
      source: { backend: "sqlite", path: "/nonexistent" },
      fallback: () => inPlace,
      workerUrl: new URL("../../fixtures/no-such-worker.ts", import.meta.url),
    });
    expect(await pool.run(passages)).toEqual([{ seq: 0, text: "in place" }]);
    expect(await pool.run(passages)).toEqual([{ seq: 0, text: "in place" }]);
  });

  test("a search that takes more memory than its bound has its thread stopped; the next job gets a new one", async () => {
    const pool = createSearchPool({
      source: { backend: "sqlite", path: "/nonexistent" },
      fallback: () => inPlace,
      size: 1,
      workerUrl: new URL("../../fixtures/hoarding-search-worker.ts", import.meta.url),
      memoryLimit: 96 * 1048576,
    });
    expect(await pool.run(passages)).toEqual([{ seq: 0, text: "from a thread" }]);
    await expect(pool.run(rank)).rejects.toThrow(/took more than 96 MiB of memory/);
    expect(await pool.run(passages)).toEqual([{ seq: 0, text: "from a thread" }]);
  });
});
