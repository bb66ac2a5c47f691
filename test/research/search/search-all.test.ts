import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { AppError } from "../../../src/contract/errors.ts";
import { createArxiv } from "../../../src/research/search/arxiv.ts";
import { createBrave } from "../../../src/research/search/brave.ts";
import { createCrossref } from "../../../src/research/search/crossref.ts";
import { mergeAndRank } from "../../../src/research/search/merge.ts";
import { createOpenAlex } from "../../../src/research/search/openalex.ts";
import { buildSearchProviders, type RunProviders } from "../../../src/research/search/registry.ts";
import { type ProviderAttempt, searchAll } from "../../../src/research/search/run-search.ts";
import { SearchError } from "../../../src/research/search/search-error.ts";
import { createSearxng } from "../../../src/research/search/searxng.ts";
import { createTavily } from "../../../src/research/search/tavily.ts";
import type { SearchProvider } from "../../../src/research/search/types.ts";
import { FIXTURE_KEYS, fixtureSearchEnv, PROVIDERS, type SearchFixtures } from "../../fixtures/search-servers.ts";
import { useSearchFixtures } from "../../helpers/search-fixtures.ts";

/** The configured providers as a run without collections searches them. */
const providers = (c: Parameters<typeof buildSearchProviders>[0]): RunProviders => {
  const { web, academic } = buildSearchProviders(c);
  return { web, academic };
};

let fx: SearchFixtures;
const PAGE = "http://pages.test";
useSearchFixtures(PAGE, (f) => {
  fx = f;
});

const cfg = (env: Record<string, string> = {}) => loadConfig({ ...fixtureSearchEnv(fx), ...env }, "/nonexistent");
const signal = () => AbortSignal.timeout(10_000);
const asked = () => new Set(fx.requests.map((r) => r.provider));
const NO_WEB = { SEARXNG_URL: "", BRAVE_API_KEY: "", TAVILY_API_KEY: "" };

describe("registry", () => {
  test("web providers in the order SearXNG, Brave, Tavily; databases as ACADEMIC_PROVIDERS lists them, none turns them off", () => {
    const p = providers(cfg({ ACADEMIC_PROVIDERS: "crossref,openalex" }));
    expect(p.web.map((x) => x.name)).toEqual(["searxng", "brave", "tavily"]);
    expect(p.academic.map((x) => x.name)).toEqual(["crossref", "openalex"]);
    const q = providers(cfg({ SEARXNG_URL: "", ACADEMIC_PROVIDERS: "none" }));
    expect([q.web.map((x) => x.name), q.academic]).toEqual([["brave", "tavily"], []]);
  });
});

describe("web fallback chain", () => {
  test("SearXNG failing → Brave answers, Tavily untouched; onProviderDone sees both calls", async () => {
    fx.setMode("searxng", "500");
    const seen: ProviderAttempt[] = [];
    const { lists, attempts } = await searchAll(["q"], "general", providers(cfg({ ACADEMIC_PROVIDERS: "none" })), {
      signal: signal(),
      onProviderDone: (a) => seen.push(a),
    });
    expect(attempts.map((a) => [a.provider, a.ok, a.error, a.status])).toEqual([
      ["searxng", false, "http_status", 500],
      ["brave", true, undefined, undefined],
    ]);
    expect(seen).toEqual(attempts);
    expect(seen[1]).toMatchObject({ query: "q", count: 3 });
    expect(lists.map((l) => l.map((h) => h.provider))).toEqual([["brave", "brave", "brave"]]);
    expect(asked().has("tavily")).toBe(false);
  });

  test("SearXNG with every engine blocked and Brave timing out hand over to Tavily; the attempts say why", async () => {
    fx.setMode("searxng", "blocked");
    fx.setMode("brave", "hang");
    // A short timeout for the hanging provider keeps the test fast; the chain is the real one.
    const p = {
      web: [
        createSearxng({ baseUrl: fx.urls.searxng }),
        createBrave({ apiKey: FIXTURE_KEYS.brave, baseUrl: fx.urls.brave, timeoutMs: 50 }),
        createTavily({ apiKey: FIXTURE_KEYS.tavily, baseUrl: fx.urls.tavily }),
      ],
      academic: [],
    };
    const seen: ProviderAttempt[] = [];
    const { lists, attempts } = await searchAll(["q"], "news", p, {
      signal: signal(),
      onProviderDone: (a) => seen.push(a),
    });
    expect(attempts.map((a) => [a.provider, a.ok, a.error])).toEqual([
      ["searxng", false, "unavailable"],
      ["brave", false, "timeout"],
      ["tavily", true, undefined],
    ]);
    expect(seen[0]!.detail).toBe(
      "no results; engines failed: startpage (Suspended: CAPTCHA), duckduckgo (Suspended: CAPTCHA), brave (Suspended: too many requests)",
    );
    expect(seen[2]!.detail).toBeUndefined();
    expect(lists.map((l) => l[0]!.provider)).toEqual(["tavily"]);
    expect(fx.requests.find((r) => r.provider === "searxng")!.url.searchParams.get("categories")).toBe("news");
  });
});

describe("academic providers and kinds", () => {
  test("one database hanging doesn't fail the run; the paper found by two databases is one hit", async () => {
    fx.setMode("arxiv", "hang");
    const p = {
      web: [],
      academic: [
        createOpenAlex({ baseUrl: fx.urls.openalex }),
        createArxiv({ baseUrl: fx.urls.arxiv, timeoutMs: 50 }),
        createCrossref({ baseUrl: fx.urls.crossref }),
      ],
    };
    const { lists, attempts } = await searchAll(["base editing", "Base  editing"], "academic", p, { signal: signal() });
    expect(attempts).toHaveLength(3);
    expect(attempts.find((a) => a.provider === "arxiv")).toMatchObject({ ok: false, error: "timeout" });
    expect(lists.map((l) => l[0]!.provider)).toEqual(["openalex", "crossref"]);
    // The lists carry what the run's one ranking needs to fold the duplicates.
    const nature = mergeAndRank(lists, "base editing").filter((h) => h.doi === "10.1038/nature17946");
    expect(nature).toHaveLength(1);
    expect(nature[0]!.providers.sort()).toEqual(["crossref", "openalex"]);
    expect(nature[0]!.pdf_url).toBe(`${PAGE}/paper/nature17946.pdf`);
  });

  test("SearXNG's science papers carry DOI, PDF, authors and journal, and merge with the databases' hits by DOI", async () => {
    const science = await createSearxng({ baseUrl: fx.urls.searxng }).search("base editing", {
      signal: signal(),
      limit: 8,
      topic: "science",
    });
    expect(science[0]).toMatchObject({
      provider: "searxng",
      type: "academic",
      url: `${PAGE}/articles/nature17946`,
      doi: "10.1038/nature17946",
      venue: "Nature",
      authors: ["Alexis C. Komor", "Yongjoo B. Kim", "Michael S. Packer", "John A. Zuris", "David R. Liu"],
    });
    expect(science[1]).toMatchObject({
      doi: "10.1038/s41586-019-1711-4",
      pdf_url: `${PAGE}/pdf/2101.00001v1`,
      authors: ["Andrew V. Anzalone", "David R. Liu"],
      published_at: "2021-01-01",
      venue: undefined,
    });
    const p = {
      web: [],
      academic: [createOpenAlex({ baseUrl: fx.urls.openalex }), createCrossref({ baseUrl: fx.urls.crossref })],
    };
    const { lists } = await searchAll(["base editing"], "academic", p, { signal: signal() });
    // The publisher's page, OpenAlex's landing page and Crossref's doi.org link share only the DOI.
    const nature = mergeAndRank([science, ...lists], "base editing").filter((h) => h.doi === "10.1038/nature17946");
    expect(nature).toHaveLength(1);
    expect(nature[0]!.providers.sort()).toEqual(["crossref", "openalex", "searxng"]);
    expect(nature[0]!.pdf_url).toBe(`${PAGE}/paper/nature17946.pdf`);
  });

  test("general questions use the web only; academic ones the web and every database, in parallel", async () => {
    await searchAll(["q"], "general", providers(cfg()), { signal: signal() });
    expect(asked()).toEqual(new Set(["searxng"]));
    fx.requests.length = 0;
    const { lists, attempts } = await searchAll(["q1", "q2"], "academic", providers(cfg()), {
      signal: signal(),
    });
    expect(asked()).toEqual(new Set(["searxng", "openalex", "arxiv", "crossref", "semantic_scholar"]));
    expect(attempts).toHaveLength(10);
    // Unranked, one list per call: query by query, the web before the databases.
    const perQuery = ["searxng", "openalex", "arxiv", "crossref", "semantic_scholar"];
    expect(lists.map((l) => l[0]!.provider)).toEqual([...perQuery, ...perQuery]);
    expect(lists.flat().some((h) => "score" in h)).toBe(false);
    expect(fx.requests.find((r) => r.provider === "searxng")!.url.searchParams.get("categories")).toBe("general");
  });

  test("without web providers the databases answer general questions; without databases SearXNG searches science", async () => {
    await searchAll(["q"], "general", providers(cfg(NO_WEB)), { signal: signal() });
    expect(asked()).toEqual(new Set(["openalex", "arxiv", "crossref", "semantic_scholar"]));
    fx.requests.length = 0;
    await searchAll(["q"], "academic", providers(cfg({ ACADEMIC_PROVIDERS: "none" })), { signal: signal() });
    expect(fx.requests.map((r) => r.url.searchParams.get("categories"))).toEqual(["science"]);
  });
});

describe("search_failed and aborts", () => {
  test("every provider failing → search_failed naming them", async () => {
    for (const p of PROVIDERS) fx.setMode(p, "500");
    const e = await searchAll(["q"], "mixed", providers(cfg()), { signal: signal() }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("search_failed");
    expect((e as AppError).message).toContain("searxng (http_status 500: upstream broke)");
    expect((e as AppError).message).toContain("crossref (http_status 500: upstream broke)");
  });

  test("a lone SearXNG whose engines are all blocked → search_failed naming each engine's reason", async () => {
    fx.setMode("searxng", "blocked");
    const e = await searchAll(
      ["q"],
      "general",
      providers(cfg({ ...NO_WEB, SEARXNG_URL: fx.urls.searxng, ACADEMIC_PROVIDERS: "none" })),
      { signal: signal() },
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect(e).toMatchObject({ code: "search_failed" });
    expect((e as AppError).message).toStartWith(
      "no search provider answered: searxng (unavailable: no results; engines failed: startpage (Suspended: CAPTCHA), duckduckgo (Suspended: CAPTCHA), brave (Suspended: too many requests)).",
    );
  });

  test("every web provider refusing → search_failed gives each one's words, the whole near 300 characters", async () => {
    fx.setMode("searxng", "blocked");
    fx.setMode("brave", "refused");
    fx.setMode("tavily", "refused");
    const e = await searchAll(["q"], "general", providers(cfg({ ACADEMIC_PROVIDERS: "none" })), {
      signal: signal(),
    }).catch((x: unknown) => x);
    const message = (e as AppError).message;
    expect(message).toStartWith(
      "no search provider answered: searxng (unavailable: no results; engines failed: startpage (Suspended: CAPTCHA)",
    );
    expect(message).toContain("brave (http_status 429: Request rate limit exceeded for plan.)");
    expect(message).toContain("tavily (http_status 400: Query is too short.");
    // The providers' account stays near 300 characters; what to do follows it.
    expect(message.split(" What to do: ")[0]!.length).toBeLessThanOrEqual(301);
  });

  test("no provider configured → search_failed naming the variables, before any request", async () => {
    const e = await searchAll(["q"], "general", providers(cfg({ ...NO_WEB, ACADEMIC_PROVIDERS: "none" })), {
      signal: signal(),
    }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "search_failed" });
    for (const name of ["SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY", "ACADEMIC_PROVIDERS"])
      expect((e as Error).message).toContain(name);
    expect(fx.requests).toHaveLength(0);
  });

  test("an abort ends the search at once, even past a provider that ignores the signal", async () => {
    fx.setMode("searxng", "hang");
    const deafAsked = Promise.withResolvers<void>();
    const deaf: SearchProvider = {
      name: "deaf",
      kind: "academic",
      search: () => {
        deafAsked.resolve();
        return new Promise(() => {});
      },
    };
    const p = providers(cfg({ ACADEMIC_PROVIDERS: "none" }));
    const ac = new AbortController();
    const run = searchAll(["q"], "mixed", { web: p.web, academic: [deaf] }, { signal: ac.signal }).catch(
      (x: unknown) => x,
    );
    // Both calls are in flight and holding before the abort.
    await Promise.all([fx.untilAsked("searxng"), deafAsked.promise]);
    ac.abort();
    // Neither the 8 s provider timeout nor the deaf provider may hold it; the test's own timeout would fail it.
    const e = await run;
    expect(e).toBeInstanceOf(SearchError);
    expect(e).toMatchObject({ reason: "aborted" });
    expect(asked().has("brave")).toBe(false);
  }, 5_000);
});
