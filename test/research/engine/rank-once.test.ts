import { expect, test } from "bun:test";
import { createEngine } from "../../../src/research/engine/engine.ts";
import { heuristicPlan } from "../../../src/research/plan/heuristic.ts";
import { mergeAndRank } from "../../../src/research/search/merge.ts";
import type { SearchHit, SearchProvider } from "../../../src/research/search/types.ts";
import type { RunEvent } from "../../../src/research/types.ts";

const hit = (url: string, provider: string): SearchHit => ({
  url,
  title: `Report ${url.slice(8, 9)}`,
  snippet: "",
  provider,
  type: "academic",
});

/** A database answering from a script keyed by query; every list it gave is logged in call order. */
function database(name: string, script: Record<string, string[]>, log: SearchHit[][]): SearchProvider {
  return {
    name,
    kind: "academic",
    async search(query) {
      const list = (script[query] ?? []).map((u) => hit(u, name));
      log.push(list);
      return list;
    },
  };
}

/** Runs the engine up to the reading stage (no page is fetched) and returns what it chose to read. */
async function candidates(question: string, providers: SearchProvider[]): Promise<{ urls: string[]; found: number }> {
  const ac = new AbortController();
  let urls: string[] = [],
    found = 0;
  const emit = (e: RunEvent) => {
    if (e.type !== "progress") return;
    if (typeof e.count === "number") found = e.count;
    if (e.stage === "reading" && Array.isArray(e.urls)) {
      urls = e.urls as string[];
      ac.abort();
    }
  };
  const engine = createEngine({ llm: null, search: { web: [], academic: providers }, allowPrivate: false });
  await engine.run(question, { signal: ac.signal, emit, reader: { accounts: [] } }).catch(() => {});
  return { urls, found };
}

test("the engine ranks every provider × query list of the run once, together", async () => {
  const question = "Why is the sky blue?";
  const [early, later] = heuristicPlan(question).queries as [string, string];
  const log: SearchHit[][] = [];
  // Y tops the question's own (early) search; X is found twice by the plan's other query.
  // Fused once, X's two votes beat Y's one. Fusing each search first and then the two
  // rankings again would tie them (each first of its list) and put Y ahead.
  const providers = [
    database("alpha", { [early]: ["https://y.example/1"], [later]: ["https://x.example/1"] }, log),
    database("beta", { [later]: ["https://x.example/1", "https://z.example/1"] }, log),
  ];
  const { urls, found } = await candidates(question, providers);
  expect(urls).toEqual(["https://x.example/1", "https://y.example/1", "https://z.example/1"]);
  expect(found).toBe(3);
  // The same as one mergeAndRank over everything the providers returned.
  const once = mergeAndRank(
    log.filter((l) => l.length),
    [question, early, later].join(" "),
  );
  expect(urls).toEqual(once.map((h) => h.url));
});
