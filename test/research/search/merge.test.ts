import { describe, expect, test } from "bun:test";
import { cleanText, isoDate, normalizeDoi } from "../../../src/research/search/clean.ts";
import { createCrossref } from "../../../src/research/search/crossref.ts";
import { mergeAndRank, normalizeUrl } from "../../../src/research/search/merge.ts";
import { createOpenAlex } from "../../../src/research/search/openalex.ts";
import { createSemanticScholar } from "../../../src/research/search/semantic-scholar.ts";
import type { SearchHit } from "../../../src/research/search/types.ts";
import { type SearchFixtures, startSearchFixtures } from "../../fixtures/search-servers.ts";

const hit = (url: string, provider = "searxng", extra: Partial<SearchHit> = {}): SearchHit => ({
  url,
  title: url,
  snippet: "",
  provider,
  type: "web",
  ...extra,
});
const hosts = (r: SearchHit[]) => r.map((h) => new URL(h.url).hostname);

describe("dedupe", () => {
  test("URL variants collapse: scheme, www, tracking params, fragment, trailing slash, parameter order", () => {
    expect(normalizeUrl("http://www.Example.com/a/?utm_source=x&b=1&a=2#top")).toBe(
      normalizeUrl("https://example.com/a?a=2&b=1"),
    );
    expect(normalizeUrl("https://example.com/a?id=1")).not.toBe(normalizeUrl("https://example.com/a?id=2"));
    const r = mergeAndRank(
      [[hit("https://example.com/a")], [hit("https://www.example.com/a/?utm_medium=y&fbclid=z", "brave")]],
      "q",
    );
    expect(r).toHaveLength(1);
    expect(r[0]!.providers).toEqual(["searxng", "brave"]);
  });

  test("DOI matches case-insensitively and through doi.org links; the merged hit keeps the richest fields", () => {
    const a = hit("https://publisher.example/x", "openalex", {
      type: "academic",
      doi: "10.1000/ABC",
      abstract: "short",
      authors: ["A"],
    });
    const b = hit("https://doi.org/10.1000/abc", "crossref", {
      type: "academic",
      title: "The real title",
      abstract: "a much longer abstract",
      venue: "J",
      published_at: "2020",
      authors: ["A", "B"],
    });
    const c = hit("https://dx.doi.org/10.1000%2Fabc", "searxng");
    const r = mergeAndRank([[a], [b], [c]], "q");
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({
      url: a.url,
      title: "The real title",
      doi: "10.1000/abc",
      abstract: "a much longer abstract",
      venue: "J",
      published_at: "2020",
      authors: ["A", "B"],
      type: "academic",
    });
    expect(r[0]!.providers).toEqual(["openalex", "crossref", "searxng"]);
  });

  test("a hit matching two earlier ones by different keys joins them", () => {
    const byDoi = hit("https://a.example/paper", "openalex", { doi: "10.1000/x" });
    const byUrl = hit("https://b.example/paper", "searxng");
    const both = hit("https://b.example/paper/", "crossref", { doi: "10.1000/X" });
    const r = mergeAndRank([[byDoi], [byUrl], [both]], "q");
    expect(r).toHaveLength(1);
    expect(r[0]!.providers.sort()).toEqual(["crossref", "openalex", "searxng"]);
  });

  test("the fixture databases' duplicates merge: OpenAlex + Crossref by DOI, Semantic Scholar by URL variant", async () => {
    const fx: SearchFixtures = startSearchFixtures("http://pages.test");
    try {
      const o = { signal: AbortSignal.timeout(10_000), limit: 10 };
      const lists = await Promise.all(
        [
          createOpenAlex({ baseUrl: fx.urls.openalex }),
          createCrossref({ baseUrl: fx.urls.crossref }),
          createSemanticScholar({ baseUrl: fx.urls.semantic_scholar }),
        ].map((p) => p.search("base editing", o)),
      );
      const r = mergeAndRank(lists, "base editing");
      const nature = r.filter((h) => h.title.startsWith("Programmable editing"));
      expect(nature).toHaveLength(1);
      expect(nature[0]!.providers.sort()).toEqual(["crossref", "openalex", "semantic_scholar"]);
      expect(nature[0]!.authors).toEqual(["Alexis C. Komor", "David R. Liu"]);
      expect(r).toHaveLength(3);
      expect(r[0]).toBe(nature[0]!);
    } finally {
      fx.stop();
    }
  });
});

describe("ranking", () => {
  test("reciprocal rank fusion: agreement across lists beats one list's top place; a repeat within a list counts once", () => {
    const r = mergeAndRank(
      [
        [hit("https://a.example/1"), hit("https://b.example/1"), hit("https://a.example/1/")],
        [hit("https://c.example/1"), hit("https://b.example/1")],
      ],
      "zzz",
    );
    expect(hosts(r)).toEqual(["b.example", "a.example", "c.example"]);
    expect(r[1]!.score).toBeCloseTo(1 / 61, 10);
  });

  test("query-term overlap breaks near-ties without overturning agreement", () => {
    const plain = hit("https://a.example/1");
    const onTopic = hit("https://b.example/1", "searxng", { title: "Base editing in human cells" });
    const r = mergeAndRank([[plain, onTopic]], "base editing human cells");
    expect(hosts(r)).toEqual(["b.example", "a.example"]);
    const agreed = mergeAndRank([[plain, onTopic], [hit("https://a.example/1", "brave")]], "base editing human cells");
    expect(hosts(agreed)).toEqual(["a.example", "b.example"]);
  });

  test("at most two results per web host at the head; the rest pushed down, not dropped; papers exempt", () => {
    const list = ["a", "b", "c", "d"]
      .map((p) => hit(`https://big.example/${p}`))
      .concat([hit("https://www.other.example/x")]);
    const r = mergeAndRank([list], "q");
    expect(hosts(r)).toEqual(["big.example", "big.example", "www.other.example", "big.example", "big.example"]);
    expect(r.map((h) => h.url).slice(3)).toEqual(["https://big.example/c", "https://big.example/d"]);
    const papers = ["1", "2", "3"]
      .map((n) => hit(`https://doi.org/10.1000/${n}`, "crossref", { type: "academic" }))
      .concat([hit("https://web.example/x")]);
    expect(mergeAndRank([papers], "q").at(-1)!.url).toBe("https://web.example/x");
  });
});

describe("text cleaning", () => {
  test("tags stripped and entities decoded, comparisons in text kept, snippets cut at a word", () => {
    expect(cleanText("<jats:p>Cells &amp; mice:\n p &lt; 0.05</jats:p>")).toBe("Cells & mice: p < 0.05");
    expect(cleanText("when p < 0.05 and q > 3, <b>bold</b> &#x41;&#66;")).toBe("when p < 0.05 and q > 3, bold AB");
    const cut = cleanText("alpha beta gamma delta", 14);
    expect(cut).toBe("alpha beta…");
    expect(normalizeDoi("https://doi.org/10.1038/NATURE17946")).toBe("10.1038/nature17946");
    expect(normalizeDoi("not a doi")).toBeUndefined();
    expect([
      isoDate("2024-05-01T10:00:00"),
      isoDate("October 12, 2023"),
      isoDate("2 days ago"),
      isoDate("garbage"),
    ]).toEqual(["2024-05-01", "2023-10-12", undefined, undefined]);
  });
});
