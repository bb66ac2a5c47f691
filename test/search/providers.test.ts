import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load.ts";
import { createOpenAlex, rebuildAbstract } from "../../src/research/search/openalex.ts";
import { createArxiv } from "../../src/research/search/arxiv.ts";
import { createCrossref } from "../../src/research/search/crossref.ts";
import { buildSearchProviders } from "../../src/research/search/registry.ts";
import { searchAll } from "../../src/research/search/run-search.ts";
import { SearchError } from "../../src/research/search/search-error.ts";
import { mergeAndRank, normalizeUrl } from "../../src/research/search/merge.ts";
import type { SearchHit } from "../../src/research/search/types.ts";
import { PROVIDERS, startSearchFixtures, type SearchFixtures } from "../fixtures/search-servers.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

let fx: SearchFixtures;
const PAGE = "http://pages.test";
beforeAll(() => { fx = startSearchFixtures(PAGE); });
afterAll(() => fx.stop());
beforeEach(() => { for (const p of PROVIDERS) fx.setMode(p, "ok"); fx.requests.length = 0; });

const cfg = (env: Record<string, string> = {}) => loadConfig({
  SEARXNG_URL: fx.urls.searxng, BRAVE_API_KEY: "brave-key", BRAVE_BASE_URL: fx.urls.brave, TAVILY_API_KEY: "tavily-key", TAVILY_BASE_URL: fx.urls.tavily,
  OPENALEX_URL: fx.urls.openalex, ARXIV_URL: fx.urls.arxiv, CROSSREF_URL: fx.urls.crossref, SEMANTIC_SCHOLAR_URL: fx.urls.semantic_scholar,
  ACADEMIC_PROVIDERS: "openalex,arxiv,crossref,semantic_scholar", CONTACT_EMAIL: "ops@example.org", ...env,
}, "/nonexistent");
const opts = () => ({ signal: AbortSignal.timeout(10_000), limit: 10 });
const byName = (name: string) => { const p = buildSearchProviders(cfg()); return [...p.web, ...p.academic].find((x) => x.name === name)!; };

describe("search providers speak their wire formats", () => {
  test("SearXNG: JSON format, tags stripped from snippets", async () => {
    const hits = await byName("searxng").search("base editing", { ...opts(), topic: "general" });
    expect(hits).toHaveLength(3);
    expect(hits[0]).toMatchObject({ url: `${PAGE}/article/base-editing`, title: "CRISPR base editing explained", provider: "searxng", type: "web" });
    expect(hits[0]!.snippet).not.toContain("<b>");
    const q = fx.requests[0]!.url.searchParams;
    expect([q.get("q"), q.get("format"), q.get("categories")]).toEqual(["base editing", "json", "general"]);
  });

  test("Brave sends X-Subscription-Token; Tavily sends Bearer and a JSON body", async () => {
    const b = await byName("brave").search("x", opts());
    expect(b[0]).toMatchObject({ provider: "brave", published_at: "2024-05-01" });
    expect(fx.requests.at(-1)!.url.pathname).toBe("/brave/res/v1/web/search");
    const t = await byName("tavily").search("x", opts());
    expect(t).toHaveLength(3);
    expect(fx.requests.at(-1)!.body).toMatchObject({ query: "x", search_depth: "basic" });
  });

  test("OpenAlex: abstract rebuilt from the inverted index, DOI, PDF, authors, venue, mailto", async () => {
    const hits = await byName("openalex").search("base editing", opts());
    expect(hits[0]).toMatchObject({
      url: `${PAGE}/paper/nature17946`, doi: "10.1038/nature17946", pdf_url: `${PAGE}/paper/nature17946.pdf`, venue: "Nature",
      published_at: "2016-04-20", authors: ["Alexis C. Komor", "David R. Liu"], type: "academic",
    });
    expect(hits[0]!.abstract).toStartWith("Base editing converts cytidine to uridine without double-stranded DNA breaks");
    expect(fx.requests[0]!.url.searchParams.get("mailto")).toBe("ops@example.org");
    expect(rebuildAbstract({ b: [1], a: [0, 2] })).toBe("a b a");
  });

  test("arXiv: Atom entries with collapsed whitespace, authors, PDF link, DOI", async () => {
    const hits = await byName("arxiv").search("prime editing", opts());
    expect(hits).toHaveLength(2);
    expect(hits[0]).toMatchObject({ title: "Prime editing: search-and-replace genome editing", authors: ["Andrew V. Anzalone", "David R. Liu"], doi: "10.1038/s41586-019-1711-4", published_at: "2021-01-01", venue: "arXiv" });
    expect(hits[0]!.abstract).toStartWith("Prime editing writes new genetic information into a specified DNA site using");
    expect(fx.requests[0]!.url.searchParams.get("search_query")).toBe("all:prime AND all:editing");
  });

  test("Crossref: JATS stripped, DOI lower-cased, items without title skipped; Semantic Scholar fields", async () => {
    const hits = await byName("crossref").search("x", opts());
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ doi: "10.1038/nature17946", url: "https://doi.org/10.1038/nature17946", venue: "Nature", published_at: "2016-04-20", authors: ["Alexis C. Komor"] });
    expect(hits[0]!.abstract).toBe("Current genome-editing technologies introduce double-stranded DNA breaks & we describe base editing, which converts cytidine to uridine.");
    const s2 = await byName("semantic_scholar").search("x", opts());
    expect(s2[0]).toMatchObject({ doi: "10.1038/s41576-018-0059-1", venue: "Nature Reviews Genetics", published_at: "2018-06-20" });
  });

  test("failures are typed: HTTP status, garbage, timeout", async () => {
    fx.setMode("searxng", "500");
    const e1 = await byName("searxng").search("x", opts()).catch((e) => e);
    expect(e1).toBeInstanceOf(SearchError);
    expect([e1.reason, e1.status]).toEqual(["http_status", 500]);
    fx.setMode("openalex", "garbage");
    expect((await byName("openalex").search("x", opts()).catch((e) => e)).reason).toBe("bad_payload");
  });
});

describe("searchAll", () => {
  test("web providers are a fallback chain: SearXNG failing → Brave answers, Tavily untouched", async () => {
    fx.setMode("searxng", "500");
    const p = buildSearchProviders(cfg({ ACADEMIC_PROVIDERS: "none" }));
    const { hits, attempts } = await searchAll(["q"], "general", p, { signal: AbortSignal.timeout(5000) });
    expect(attempts.map((a) => [a.provider, a.ok])).toEqual([["searxng", false], ["brave", true]]);
    expect(hits[0]!.provider).toBe("brave");
    expect(fx.requests.some((r) => r.provider === "tavily")).toBe(false);
  });

  test("one academic provider hanging doesn't fail the run; dedupe by DOI across providers", async () => {
    fx.setMode("arxiv", "hang");
    const p = { web: [], academic: [createOpenAlex({ baseUrl: fx.urls.openalex }), createArxiv({ baseUrl: fx.urls.arxiv, timeoutMs: 200 }), createCrossref({ baseUrl: fx.urls.crossref })] };
    const { hits, attempts } = await searchAll(["base editing"], "academic", p, { signal: AbortSignal.timeout(5000) });
    expect(attempts.find((a) => a.provider === "arxiv")).toMatchObject({ ok: false, error: "timeout" });
    const nature = hits.filter((h) => h.doi === "10.1038/nature17946");
    expect(nature).toHaveLength(1);
    expect(nature[0]!.providers.sort()).toEqual(["crossref", "openalex"]);
    expect(nature[0]!.pdf_url).toBe(`${PAGE}/paper/nature17946.pdf`);
  });

  test("all providers failing → search_failed; none configured → search_failed naming the variables", async () => {
    for (const p of PROVIDERS) fx.setMode(p, "500");
    const e = await searchAll(["q"], "mixed", buildSearchProviders(cfg()), { signal: AbortSignal.timeout(5000) }).catch((x) => x);
    expect(e.code).toBe("search_failed");
    const none = await searchAll(["q"], "general", { web: [], academic: [] }, { signal: AbortSignal.timeout(5000) }).catch((x) => x);
    expect(none.code).toBe("search_failed");
    expect(none.message).toContain("SEARXNG_URL");
  });

  test("general questions use the web only; without web providers the academic databases answer", async () => {
    await searchAll(["q"], "general", buildSearchProviders(cfg()), { signal: AbortSignal.timeout(5000) });
    expect(new Set(fx.requests.map((r) => r.provider))).toEqual(new Set(["searxng"]));
    fx.requests.length = 0;
    await searchAll(["q"], "general", buildSearchProviders(cfg({ SEARXNG_URL: "", BRAVE_API_KEY: "", TAVILY_API_KEY: "" })), { signal: AbortSignal.timeout(5000) });
    expect(fx.requests.every((r) => ["openalex", "arxiv", "crossref", "semantic_scholar"].includes(r.provider))).toBe(true);
  });

  test("an abort stops the search at once", async () => {
    fx.setMode("searxng", "hang");
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const t0 = performance.now();
    await searchAll(["q"], "general", buildSearchProviders(cfg({ ACADEMIC_PROVIDERS: "none" })), { signal: ac.signal }).catch(() => {});
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe("merge and rank", () => {
  const hit = (url: string, provider = "searxng", extra: Partial<SearchHit> = {}): SearchHit => ({ url, title: url, snippet: "", provider, type: "web", ...extra });
  test("URL variants collapse: www, tracking params, fragment, trailing slash", () => {
    expect(normalizeUrl("https://www.Example.com/a/?utm_source=x&b=1#top")).toBe(normalizeUrl("https://example.com/a?b=1"));
    const r = mergeAndRank([[hit("https://example.com/a")], [hit("https://www.example.com/a/?utm_medium=y", "brave")]], "q");
    expect(r).toHaveLength(1);
    expect(r[0]!.providers).toEqual(["searxng", "brave"]);
  });

  test("at most two results per host at the head; the rest pushed down, not dropped", () => {
    const list = ["a", "b", "c", "d"].map((p) => hit(`https://big.example/${p}`)).concat([hit("https://other.example/x")]);
    const r = mergeAndRank([list], "q");
    expect(r.map((h) => new URL(h.url).hostname)).toEqual(["big.example", "big.example", "other.example", "big.example", "big.example"]);
  });
});
