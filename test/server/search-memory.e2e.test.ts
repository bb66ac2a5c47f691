import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { textDoc } from "../corpus/search/search-helpers.ts";
import { spawnServe } from "../helpers/serve-process.ts";
import { Client, keyedClient, query } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/**
 * A free account's upload thick with one short word, then that word asked (README "Searching
 * collections"). The index once answered a term's postings one row per occurrence over every
 * collection, read whole and filtered after: the account's own question, and another account's
 * question of the same word, took the server's memory up by hundreds of MiB (the searches run
 * on threads of the server's process, so its resident memory is theirs). Postings are now
 * summed per document in SQLite, and read only within the searched collections.
 */

// 3,000,000 occurrences of "zq": read one row each, hundreds of MiB; summed per document, little.
const DOCS = 300;
const PER_DOC = 10_000;
const GROWTH_MIB = 100;

/** The process's resident memory now, and its peak since the last reset, in MiB. */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** How far the process's peak resident memory rose above where it stood while `work` ran, in MiB. */
async function growthDuring(pid: number, work: () => Promise<void>): Promise<number> {
  // "5" resets the peak (VmHWM) to the present resident size (Linux's clear_refs).
  await Bun.write(`/proc/${pid}/clear_refs`, "5");
  const before = await memory(pid);
  await work();
  return (await memory(pid)).peak - before.rss;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "rq-search-memory-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a collection thick with one short word", () => {
  test("its owner's question of that word, and another account's, leave the server's memory within 100 MiB", async () => {
    const dbPath = join(dir, "rq.db");
    const { proc: p, base } = await spawnServe(
      { DATABASE_PATH: dbPath, DEFAULT_PLAN: "free", LOCAL_SEARCH: "only", ACADEMIC_PROVIDERS: "none" },
      dir,
    );
    try {
      const a = new Client(base);
      const { account } = await a.signup();
      const aKey = (await a.createKey()).key;
      const b = await keyedClient(base);

      // A's private collection as its uploads would leave it, and a shared one B reads.
      const store = openSqliteStore(dbPath);
      const mine = (await store.corpus.createCollection({ name: "mine", ownerId: account.id, visibility: "private" }))!;
      // Sentences of the one word, so the answer without a model has something whole to quote.
      const body = `Zq${" zq".repeat(19)}. `.repeat(PER_DOC / 20);
      for (let from = 0; from < DOCS; from += 50)
        await store.corpus.put(
          mine.id,
          Array.from({ length: 50 }, (_, i) => textDoc(`a${from + i}.txt`, `notes ${from + i}`, body)),
        );
      const handbook = (await store.corpus.createCollection({
        name: "handbook",
        ownerId: null,
        visibility: "shared",
      }))!;
      await store.corpus.put(handbook.id, [
        textDoc(
          "h1",
          "Welcome",
          "The zq desk on the second floor answers questions about travel and payroll every weekday.",
        ),
        textDoc("h2", "Leave", "Ask the zq team two weeks before you book leave, and tell your manager the dates."),
      ]);

      const ask = async (key: string, question = "zq") => {
        const res = await query(base, key, { query: question });
        expect(res.status).toBe(200);
        return (await res.json()) as { status: string; sources: { type: string; collection?: string }[] };
      };
      // The threads, their connections and the index's lengths, once: what follows is the word's postings.
      await ask(b.key, "welcome");

      let own!: Awaited<ReturnType<typeof ask>>;
      const ownGrowth = await growthDuring(p.pid, async () => {
        own = await ask(aKey);
      });
      // A write, so nothing the first search read is remembered for the second (the index changed).
      await store.corpus.put(handbook.id, [textDoc("h3", "Parking", "Bikes go behind the building.")]);
      store.close();
      await ask(b.key, "welcome");
      let theirs!: Awaited<ReturnType<typeof ask>>;
      const otherGrowth = await growthDuring(p.pid, async () => {
        theirs = await ask(b.key);
      });
      console.log(
        `peak RSS growth: owner's search ${ownGrowth.toFixed(1)} MiB, another's ${otherGrowth.toFixed(1)} MiB`,
      );

      expect(own.sources.some((s) => s.collection === "mine")).toBe(true);
      expect(theirs.sources.length).toBeGreaterThan(0);
      expect(theirs.sources.every((s) => s.collection === "handbook")).toBe(true);
      expect(ownGrowth).toBeLessThan(GROWTH_MIB);
      expect(otherGrowth).toBeLessThan(GROWTH_MIB);
    } finally {
      p.kill("SIGKILL");
    }
  });
});
