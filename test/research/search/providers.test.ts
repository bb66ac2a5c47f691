import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { parseArxivFeed } from "../../../src/research/search/arxiv.ts";
import { rebuildAbstract } from "../../../src/research/search/openalex.ts";
import { buildSearchProviders } from "../../../src/research/search/registry.ts";
import { SearchError } from "../../../src/research/search/search-error.ts";
import { createSemanticScholar } from "../../../src/research/search/semantic-scholar.ts";
import { FIXTURE_KEYS, fixtureSearchEnv, PROVIDERS, type SearchFixtures } from "../../fixtures/search-servers.ts";
import { useSearchFixtures } from "../../helpers/search-fixtures.ts";

let fx: SearchFixtures;
const PAGE = "http://pages.test";
useSearchFixtures(PAGE, (f) => {
  fx = f;
});

const cfg = (env: Record<string, string> = {}) =>
  loadConfig({ ...fixtureSearchEnv(fx), CONTACT_EMAIL: "ops@example.org", ...env }, "/nonexistent");
const opts = () => ({ signal: AbortSignal.timeout(10_000), limit: 10 });
const byName = (name: string, env?: Record<string, string>) => {
  const p = buildSearchProviders(cfg(env));
  return [...p.web, ...p.academic].find((x) => x.name === name)!;
};
const last = () => fx.requests.at(-1)!;

describe("web providers", () => {
  test("SearXNG: JSON format and category, tags stripped from snippets, user agent", async () => {
    const hits = await byName("searxng").search("base editing", { ...opts(), topic: "news" });
    expect(hits).toHaveLength(3);
    expect(hits[0]).toEqual({
      url: `${PAGE}/article/base-editing`,
      title: "CRISPR base editing explained",
      snippet: "Base editors change single DNA letters without double-strand breaks.",
      provider: "searxng",
      type: "web",
      published_at: undefined,
    });
    const r = last();
    expect(r.url.pathname).toBe("/searxng/search");
    expect([
      r.url.searchParams.get("q"),
      r.url.searchParams.get("format"),
      r.url.searchParams.get("categories"),
    ]).toEqual(["base editing", "json", "news"]);
    expect(r.headers.get("user-agent")).toBe("research-query/0.1");
  });

  test("Brave: X-Subscription-Token and count sent; description and page_age read; a wrong key is its 422 with Brave's words", async () => {
    const hits = await byName("brave").search("base editing", { ...opts(), limit: 2 });
    expect(hits).toHaveLength(2);
    expect(hits[1]).toMatchObject({
      provider: "brave",
      type: "web",
      title: "Base editing – a review",
      snippet: "A review of cytosine and adenine base editors.",
      published_at: "2024-05-01",
    });
    expect(last().url.pathname).toBe("/brave/res/v1/web/search");
    expect(last().url.searchParams.get("count")).toBe("2");
    expect(last().headers.get("x-subscription-token")).toBe(FIXTURE_KEYS.brave);
    const e = await byName("brave", { BRAVE_API_KEY: "wrong" })
      .search("x", opts())
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SearchError);
    expect(e).toMatchObject({
      provider: "brave",
      reason: "http_status",
      status: 422,
      message: "brave: HTTP 422: The provided subscription token is invalid.",
      detail: "The provided subscription token is invalid.",
    });
  });

  test("Tavily: a wrong key is its 401 with Tavily's words, and the key we sent is not in them", async () => {
    const e = await byName("tavily", { TAVILY_API_KEY: "tvly-wrong-key-0000" })
      .search("x", opts())
      .catch((x: unknown) => x);
    expect(e).toMatchObject({
      reason: "http_status",
      status: 401,
      message: "tavily: HTTP 401: Unauthorized: missing or invalid API key.",
    });
    expect((e as Error).message).not.toContain("tvly-wrong");
  });

  test("SearXNG: no results while its engines were blocked is a failure naming each engine's reason", async () => {
    fx.setMode("searxng", "blocked");
    const e = await byName("searxng")
      .search("base editing", opts())
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SearchError);
    expect(e).toMatchObject({
      provider: "searxng",
      reason: "unavailable",
      message:
        "searxng: no results; engines failed: startpage (Suspended: CAPTCHA), duckduckgo (Suspended: CAPTCHA), brave (Suspended: too many requests)",
      detail:
        "no results; engines failed: startpage (Suspended: CAPTCHA), duckduckgo (Suspended: CAPTCHA), brave (Suspended: too many requests)",
    });
  });

  test("SearXNG: results while some engines were blocked are a success; no results and no failed engine are zero hits", async () => {
    fx.setMode("searxng", "partial");
    expect(await byName("searxng").search("base editing", opts())).toHaveLength(3);
    fx.setMode("searxng", "empty");
    expect(await byName("searxng").search("base editing", opts())).toEqual([]);
  });

  test("Brave without matches leaves out `web`: zero hits, not an error", async () => {
    fx.setMode("brave", "empty");
    expect(await byName("brave").search("x", opts())).toEqual([]);
  });

  test("Tavily: POST with Bearer key and the JSON body", async () => {
    const hits = await byName("tavily").search("base editing", { ...opts(), limit: 5 });
    expect(hits.map((h) => h.url)).toEqual([
      `${PAGE}/article/base-editing`,
      `${PAGE}/article/review?utm_source=x`,
      `${PAGE}/article/news`,
    ]);
    const r = last();
    expect(r.url.pathname).toBe("/tavily/search");
    expect(r.headers.get("authorization")).toBe(`Bearer ${FIXTURE_KEYS.tavily}`);
    expect(r.body).toEqual({ query: "base editing", max_results: 5, search_depth: "basic", topic: "general" });
  });

  test("hits with non-http(s) addresses are dropped; long snippets capped near 400 characters", async () => {
    fx.setWeb([
      { title: "js", url: "javascript:alert(1)", snippet: "x" },
      { title: "ftp", url: "ftp://files.example/x", snippet: "x" },
      { title: "Long &amp; <i>winding</i>", url: "https://long.example/a", snippet: "word ".repeat(300) },
    ]);
    try {
      const hits = await byName("searxng").search("x", opts());
      expect(hits.map((h) => h.url)).toEqual(["https://long.example/a"]);
      expect(hits[0]!.title).toBe("Long & winding");
      expect(hits[0]!.snippet.length).toBeLessThanOrEqual(400);
      expect(hits[0]!.snippet.length).toBeGreaterThan(300);
      expect(hits[0]!.snippet).toEndWith("word…");
    } finally {
      fx.setWeb([
        {
          title: "CRISPR base editing explained",
          url: "/article/base-editing",
          snippet: "Base editors change single DNA letters without double-strand breaks.",
        },
      ]);
    }
  });
});

describe("academic providers", () => {
  test("OpenAlex: abstract rebuilt from the inverted index, DOI, PDF, authors, venue, mailto, select", async () => {
    const hits = await byName("openalex").search("base editing, review", opts());
    expect(hits[0]).toMatchObject({
      url: `${PAGE}/paper/nature17946`,
      doi: "10.1038/nature17946",
      pdf_url: `${PAGE}/paper/nature17946.pdf`,
      venue: "Nature",
      published_at: "2016-04-20",
      authors: ["Alexis C. Komor", "David R. Liu"],
      type: "academic",
      provider: "openalex",
      title: "Programmable editing of a target base in genomic DNA without double-stranded DNA cleavage",
    });
    expect(hits[0]!.abstract).toBe(
      "Base editing converts cytidine to uridine without double-stranded DNA breaks in human cells with high efficiency and few indels",
    );
    expect(hits[1]!.pdf_url).toBeUndefined();
    const q = last().url.searchParams;
    expect([q.get("search"), q.get("per-page"), q.get("mailto")]).toEqual([
      "base editing  review",
      "10",
      "ops@example.org",
    ]);
    expect(q.get("select")).toContain("abstract_inverted_index");
    expect(rebuildAbstract({ b: [1], a: [0, 2], bogus: [1e9] })).toBe("a b a");
  });

  test("arXiv: Atom entries with collapsed whitespace, authors, PDF link, DOI; function words left out of the query", async () => {
    const hits = await byName("arxiv").search("What is prime editing?", opts());
    expect(hits).toHaveLength(2);
    expect(hits[0]).toMatchObject({
      url: `${PAGE}/abs/2101.00001v1`,
      pdf_url: `${PAGE}/pdf/2101.00001v1`,
      title: "Prime editing: search-and-replace genome editing",
      authors: ["Andrew V. Anzalone", "David R. Liu"],
      doi: "10.1038/s41586-019-1711-4",
      published_at: "2021-01-01",
      venue: "arXiv",
      type: "academic",
    });
    expect(hits[0]!.abstract).toStartWith(
      "Prime editing writes new genetic information into a specified DNA site using a catalytically",
    );
    expect(hits[1]).toMatchObject({
      title: "Off-target effects of base editors",
      authors: ["Jane Roe"],
      doi: undefined,
      pdf_url: undefined,
    });
    expect(last().url.searchParams.get("search_query")).toBe("all:prime AND all:editing");
    expect(last().url.searchParams.get("max_results")).toBe("10");
  });

  test("arXiv: its HTTP-200 error entry and a throttling body are bad_payload, not zero hits; math survives", () => {
    const err = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id><title>Error</title><summary>incorrect id format for 1234</summary><author><name>arXiv api core</name></author></entry></feed>`;
    expect(() => parseArxivFeed(err, 5)).toThrow(/incorrect id format/);
    expect(() => parseArxivFeed("Rate exceeded.", 5)).toThrow(SearchError);
    const math = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/1</id><title>Bounds when x &lt; y and y &gt; z</title><summary>We show p&lt;0.05 holds for n&gt;3.</summary></entry></feed>`;
    const [h] = parseArxivFeed(math, 5);
    expect(h).toMatchObject({
      url: "https://arxiv.org/abs/1",
      title: "Bounds when x < y and y > z",
      abstract: "We show p<0.05 holds for n>3.",
    });
  });

  test("Crossref: JATS stripped and entities decoded, DOI lower-cased, untitled items skipped, mailto sent", async () => {
    const hits = await byName("crossref").search("base editing", opts());
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({
      doi: "10.1038/nature17946",
      url: "https://doi.org/10.1038/nature17946",
      venue: "Nature",
      published_at: "2016-04-20",
      authors: ["Alexis C. Komor"],
      provider: "crossref",
    });
    expect(hits[0]!.abstract).toBe(
      "Current genome-editing technologies introduce double-stranded DNA breaks & we describe base editing, which converts cytidine to uridine.",
    );
    const q = last().url.searchParams;
    expect([q.get("query"), q.get("rows"), q.get("mailto")]).toEqual(["base editing", "10", "ops@example.org"]);
  });

  test("Semantic Scholar: fields asked for, x-api-key sent when configured, paper fields read", async () => {
    const s2 = createSemanticScholar({ baseUrl: fx.urls.semantic_scholar, apiKey: "s2-key" });
    const hits = await s2.search("base editing", opts());
    expect(hits[0]).toMatchObject({
      url: `${PAGE}/s2/abc`,
      doi: "10.1038/s41576-018-0059-1",
      venue: "Nature Reviews Genetics",
      published_at: "2018-06-20",
      authors: ["Holly A. Rees"],
      provider: "semantic_scholar",
    });
    expect(hits[1]).toMatchObject({ doi: undefined, published_at: "2016", abstract: undefined });
    expect(last().url.pathname).toBe("/s2/graph/v1/paper/search");
    expect(last().url.searchParams.get("fields")).toBe(
      "title,abstract,url,year,authors,venue,externalIds,openAccessPdf,publicationDate",
    );
    expect(last().headers.get("x-api-key")).toBe("s2-key");
    await byName("semantic_scholar").search("x", opts());
    expect(last().headers.get("x-api-key")).toBeNull();
    fx.setMode("semantic_scholar", "empty");
    expect(await s2.search("x", opts())).toEqual([]);
  });
});

describe("failures are typed", () => {
  test.each(PROVIDERS.map((p) => [p]))(
    "%s: HTTP 500 → http_status with its text, garbage → bad_payload",
    async (name) => {
      const p = byName(name);
      fx.setMode(name, "500");
      const e1 = await p.search("base editing", opts()).catch((e: unknown) => e);
      expect(e1).toBeInstanceOf(SearchError);
      expect(e1).toMatchObject({
        provider: name,
        reason: "http_status",
        status: 500,
        message: `${name}: HTTP 500: upstream broke`,
        detail: "upstream broke",
      });
      fx.setMode(name, "garbage");
      expect(await p.search("base editing", opts()).catch((e: unknown) => e)).toMatchObject({
        provider: name,
        reason: "bad_payload",
      });
    },
  );
});

describe("failures keep the upstream's own words", () => {
  // Each provider's recorded refusal (test/fixtures/search-servers.ts refusal()) and what we say of it.
  const said: [string, number, string][] = [
    ["searxng", 403, "searxng: HTTP 403 (is json enabled in search.formats of settings.yml?)"],
    ["brave", 429, "brave: HTTP 429: Request rate limit exceeded for plan."],
    ["tavily", 400, "tavily: HTTP 400: Query is too short. Min query length is 2 characters."],
    ["openalex", 400, "openalex: HTTP 400: Invalid query parameters error: foo is not a valid field for select."],
    ["arxiv", 400, "arxiv: HTTP 400: incorrect id format for 1234"],
    [
      "crossref",
      400,
      "crossref: HTTP 400: Integer specified as 2000 but must be a positive integer less than or equal to 1000.",
    ],
    [
      "semantic_scholar",
      429,
      "semantic_scholar: HTTP 429: Too Many Requests. Please wait and try again or apply for a key for higher rate limits. https://www.semanticscholar.org/product/api#api-key-form",
    ],
  ];
  test.each(said)("%s: its refusal (HTTP %d) reads as what it said", async (name, status, message) => {
    fx.setMode(name as (typeof PROVIDERS)[number], "refused");
    const e = await byName(name)
      .search("base editing", opts())
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SearchError);
    expect(e).toMatchObject({ provider: name, reason: "http_status", status, message });
  });

  test.each(PROVIDERS.map((p) => [p]))("%s: a proxy's HTML error page is the status alone", async (name) => {
    fx.setMode(name, "html");
    const e = await byName(name)
      .search("base editing", opts())
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ provider: name, reason: "http_status", status: 502, message: `${name}: HTTP 502` });
    expect((e as SearchError).detail).toBeUndefined();
  });
});
