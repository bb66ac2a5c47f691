import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AppError } from "../../../src/contract/errors.ts";
import { arxivInterval, createArxiv } from "../../../src/research/search/arxiv.ts";
import { createOpenAlex } from "../../../src/research/search/openalex.ts";
import { Pacer } from "../../../src/research/search/pacer.ts";
import { searchAll } from "../../../src/research/search/run-search.ts";
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

  test("a paced arXiv provider makes one request per interval; the others are skipped without a request", async () => {
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
    expect([b, c]).toEqual(["skipped", "skipped"]);
    expect(asked() - before).toBe(1);
    // 150 ms before the next slot: still further off than maxWaitMs.
    now += 250;
    expect(await go("base editing")).toBe("skipped");
    // Within maxWaitMs of the next slot: waits for it (20 ms), then calls.
    now += 130;
    expect(await go("base editing")).toBeGreaterThan(0);
    expect(waits).toEqual([0, 20]);
    expect(asked() - before).toBe(2);
  });

  test("with no network, the calls the pacing turned away report the connection failure, never rate_limited", async () => {
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const baseUrl = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const arxiv = createArxiv({ baseUrl, minIntervalMs: 3000, now: () => 1_000_000 });
    const signal = AbortSignal.timeout(5000);
    const reasons = await Promise.all(
      ["base editing", "prime editing", "gene therapy"].map((q) =>
        arxiv.search(q, { signal, limit: 5 }).then(
          () => "ok",
          (e: SearchError) => `${e.reason}: ${e.message}`,
        ),
      ),
    );
    for (const r of reasons) expect(r).toStartWith("network: arxiv: ");
    expect(reasons.slice(1).every((r) => r.includes("not asked: the call before it failed"))).toBe(true);
  });

  test("search_failed on a box with no network says arxiv (network), not rate_limited, and what to do", async () => {
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const url = (p: string) => `http://127.0.0.1:${closed.port}/${p}`;
    closed.stop(true);
    const arxiv = createArxiv({ baseUrl: url("arxiv"), minIntervalMs: 3000 });
    const openalex = createOpenAlex({ baseUrl: url("openalex") });
    const e = (await searchAll(
      ["solid-state battery limits", "solid electrolyte dendrites", "lithium anode interface"],
      "academic",
      { web: [], academic: [openalex, arxiv] },
      { signal: AbortSignal.timeout(5000) },
    ).catch((x: unknown) => x)) as AppError;
    expect(e.code).toBe("search_failed");
    expect(e.message).toStartWith("no search provider answered: ");
    expect(e.message).toContain("arxiv (network");
    expect(e.message).not.toContain("rate_limited");
    expect(e.message).toContain("What to do: check this machine's network or proxy (HTTPS_PROXY)");
    expect(e.message).toContain("SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY");
    expect(e.message).toContain("research-query corpus add");
  });
});
