import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { arxivInterval, createArxiv } from "../../../src/research/search/arxiv.ts";
import { Pacer } from "../../../src/research/search/pacer.ts";
import type { SearchError } from "../../../src/research/search/search-error.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";

let fx: SearchFixtures;
beforeAll(() => {
  fx = startSearchFixtures("http://pages.test");
});
afterAll(() => fx.stop());

describe("pacing a rate-limited provider", () => {
  test("slots are spaced by the interval; a slot further off than the caller can wait is refused, not taken", () => {
    const p = new Pacer(3000);
    expect(p.reserve(2000, 10_000)).toBe(0);
    expect(p.reserve(2000, 10_500)).toBeNull();
    expect(p.reserve(2000, 11_500)).toBe(1500);
    expect(p.reserve(5000, 11_500)).toBe(4500);
    expect(new Pacer(0).reserve(0, 1)).toBe(0);
  });

  test("arXiv's own servers are paced at one request per 3 s; mirrors and fixtures are not", () => {
    expect(arxivInterval("https://export.arxiv.org")).toBe(3000);
    expect(arxivInterval("http://arxiv.org/")).toBe(3000);
    expect(arxivInterval("http://127.0.0.1:8080")).toBe(0);
    expect(arxivInterval("https://notarxiv.org")).toBe(0);
  });

  test("a paced arXiv provider makes one request per interval; the others are skipped as rate_limited without a request", async () => {
    // The pacer's clock is moved by hand, and its waits for a slot are recorded, not timed.
    let now = 1_000_000;
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const arxiv = createArxiv({ baseUrl: fx.urls.arxiv, minIntervalMs: 400, maxWaitMs: 100, now: () => now, sleep });
    const go = (q: string) =>
      arxiv.search(q, { signal: AbortSignal.timeout(5000), limit: 5 }).then(
        (h) => h.length,
        (e: SearchError) => e.reason,
      );
    const asked = () => fx.requests.filter((r) => r.provider === "arxiv").length;
    const before = asked();
    const [a, b, c] = await Promise.all([go("base editing"), go("prime editing"), go("gene therapy")]);
    expect(a).toBeGreaterThan(0);
    expect([b, c]).toEqual(["rate_limited", "rate_limited"]);
    expect(asked() - before).toBe(1);
    // 150 ms before the next slot: still further off than maxWaitMs.
    now += 250;
    expect(await go("base editing")).toBe("rate_limited");
    // Within maxWaitMs of the next slot: waits for it (20 ms), then calls.
    now += 130;
    expect(await go("base editing")).toBeGreaterThan(0);
    expect(waits).toEqual([0, 20]);
    expect(asked() - before).toBe(2);
  });
});
