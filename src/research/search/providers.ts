import type { AcademicProviderName, Config } from "../../config/schema.ts";
import { arxivInterval, createArxiv } from "./arxiv.ts";
import { createBrave } from "./brave.ts";
import { createCrossref } from "./crossref.ts";
import { DEFAULT_TIMEOUT_MS, SLOW_PROVIDER_TIMEOUT_MS } from "./http-json.ts";
import { createOpenAlex } from "./openalex.ts";
import { createSearxng } from "./searxng.ts";
import { createSemanticScholar } from "./semantic-scholar.ts";
import { createTavily } from "./tavily.ts";
import type { SearchProvider } from "./types.ts";

/** A web provider: on when its address or key is set. */
interface WebRow {
  kind: "web";
  /** Its own timeout, the default of EngineTimings.searchTimeoutMs. */
  timeoutMs: number;
  build(cfg: Config, timeoutMs: number): SearchProvider | undefined;
}

/** An academic database: on when ACADEMIC_PROVIDERS names it. */
interface AcademicRow {
  kind: "academic";
  timeoutMs: number;
  /** Its address, which a probe asks whether this machine reaches it (reachability.ts). */
  url(cfg: Config): string;
  build(cfg: Config, timeoutMs: number): SearchProvider;
}

/**
 * Every search provider (one file each), by the name runs, logs and timings know it. Web
 * providers are tried in this order (self-hosted first, then the paid APIs); academic ones
 * run in the order ACADEMIC_PROVIDERS lists them, and there must be a row for each name that
 * variable accepts (src/config/schema.ts). Adding a provider is a row here and its file.
 */
export const SEARCH_PROVIDERS = {
  searxng: {
    kind: "web",
    timeoutMs: DEFAULT_TIMEOUT_MS,
    build: (cfg, timeoutMs) => (cfg.SEARXNG_URL ? createSearxng({ baseUrl: cfg.SEARXNG_URL, timeoutMs }) : undefined),
  },
  brave: {
    kind: "web",
    timeoutMs: DEFAULT_TIMEOUT_MS,
    build: (cfg, timeoutMs) =>
      cfg.BRAVE_API_KEY
        ? createBrave({ apiKey: cfg.BRAVE_API_KEY, baseUrl: cfg.BRAVE_BASE_URL, timeoutMs })
        : undefined,
  },
  tavily: {
    kind: "web",
    timeoutMs: DEFAULT_TIMEOUT_MS,
    build: (cfg, timeoutMs) =>
      cfg.TAVILY_API_KEY
        ? createTavily({ apiKey: cfg.TAVILY_API_KEY, baseUrl: cfg.TAVILY_BASE_URL, timeoutMs })
        : undefined,
  },
  openalex: {
    kind: "academic",
    timeoutMs: DEFAULT_TIMEOUT_MS,
    url: (cfg) => cfg.OPENALEX_URL,
    build: (cfg, timeoutMs) => createOpenAlex({ baseUrl: cfg.OPENALEX_URL, mailto: cfg.CONTACT_EMAIL, timeoutMs }),
  },
  arxiv: {
    kind: "academic",
    timeoutMs: SLOW_PROVIDER_TIMEOUT_MS,
    url: (cfg) => cfg.ARXIV_URL,
    build: (cfg, timeoutMs) =>
      createArxiv({ baseUrl: cfg.ARXIV_URL, minIntervalMs: arxivInterval(cfg.ARXIV_URL), timeoutMs }),
  },
  crossref: {
    kind: "academic",
    timeoutMs: SLOW_PROVIDER_TIMEOUT_MS,
    url: (cfg) => cfg.CROSSREF_URL,
    build: (cfg, timeoutMs) => createCrossref({ baseUrl: cfg.CROSSREF_URL, mailto: cfg.CONTACT_EMAIL, timeoutMs }),
  },
  semantic_scholar: {
    kind: "academic",
    timeoutMs: DEFAULT_TIMEOUT_MS,
    url: (cfg) => cfg.SEMANTIC_SCHOLAR_URL,
    build: (cfg, timeoutMs) => createSemanticScholar({ baseUrl: cfg.SEMANTIC_SCHOLAR_URL, timeoutMs }),
  },
} satisfies Record<string, WebRow | AcademicRow> & Record<AcademicProviderName, AcademicRow>;

export type SearchProviderName = keyof typeof SEARCH_PROVIDERS;

/** The names in table order. */
export const PROVIDER_NAMES = Object.keys(SEARCH_PROVIDERS) as SearchProviderName[];
