import type { Config } from "../../config/schema.ts";
import { AppError } from "../../contract/errors.ts";
import type { Store } from "../../store/types.ts";
import { createArxiv } from "./arxiv.ts";
import { createBrave } from "./brave.ts";
import { createCrossref } from "./crossref.ts";
import { createLocal, type LocalProvider } from "./local.ts";
import { createOpenAlex } from "./openalex.ts";
import { createSearxng } from "./searxng.ts";
import { createSemanticScholar } from "./semantic-scholar.ts";
import { createTavily } from "./tavily.ts";
import type { SearchProvider } from "./types.ts";

/**
 * The configured providers: web ones in fallback order, academic ones to run side by side,
 * and the service's own collections beside both.
 */
export interface SearchProviders {
  web: SearchProvider[];
  academic: SearchProvider[];
  local?: LocalProvider;
  /** LOCAL_SEARCH=only: the collections are the sole source. */
  localOnly?: boolean;
}

export type SearchProviderName =
  | "searxng"
  | "brave"
  | "tavily"
  | "openalex"
  | "arxiv"
  | "crossref"
  | "semantic_scholar";

/**
 * Builds the providers the configuration names. Web order is SearXNG, Brave, Tavily
 * (self-hosted first, then the paid APIs); a web provider is on when its address or
 * key is set. Academic databases follow ACADEMIC_PROVIDERS, in its order. A provider
 * missing from `t` (timeouts in ms) keeps its own default. The collections of `store`
 * join unless LOCAL_SEARCH=off; with LOCAL_SEARCH=only nothing else is built.
 */
export function buildSearchProviders(
  cfg: Config,
  t: Partial<Record<SearchProviderName, number>> = {},
  store?: Store,
): SearchProviders {
  const local = store && cfg.LOCAL_SEARCH !== "off" ? createLocal({ store }) : undefined;
  if (cfg.LOCAL_SEARCH === "only") return { web: [], academic: [], local, localOnly: true };
  const web: SearchProvider[] = [];
  if (cfg.SEARXNG_URL) web.push(createSearxng({ baseUrl: cfg.SEARXNG_URL, timeoutMs: t.searxng }));
  if (cfg.BRAVE_API_KEY)
    web.push(createBrave({ apiKey: cfg.BRAVE_API_KEY, baseUrl: cfg.BRAVE_BASE_URL, timeoutMs: t.brave }));
  if (cfg.TAVILY_API_KEY)
    web.push(createTavily({ apiKey: cfg.TAVILY_API_KEY, baseUrl: cfg.TAVILY_BASE_URL, timeoutMs: t.tavily }));
  const academic: SearchProvider[] = [];
  const names =
    cfg.ACADEMIC_PROVIDERS === "none" ? [] : [...new Set(cfg.ACADEMIC_PROVIDERS.split(",").map((n) => n.trim()))];
  for (const n of names) {
    if (n === "openalex")
      academic.push(createOpenAlex({ baseUrl: cfg.OPENALEX_URL, mailto: cfg.CONTACT_EMAIL, timeoutMs: t.openalex }));
    if (n === "arxiv")
      academic.push(
        createArxiv({ baseUrl: cfg.ARXIV_URL, minIntervalMs: arxivInterval(cfg.ARXIV_URL), timeoutMs: t.arxiv }),
      );
    if (n === "crossref")
      academic.push(createCrossref({ baseUrl: cfg.CROSSREF_URL, mailto: cfg.CONTACT_EMAIL, timeoutMs: t.crossref }));
    if (n === "semantic_scholar")
      academic.push(createSemanticScholar({ baseUrl: cfg.SEMANTIC_SCHOLAR_URL, timeoutMs: t.semantic_scholar }));
  }
  return { web, academic, ...(local ? { local } : {}) };
}

/**
 * The providers of one run: `local` only while some collection holds documents, asked per
 * run since collections are added while the server runs. LOCAL_SEARCH=only with empty
 * collections fails the run at once, saying what to do.
 */
export async function providersForRun(p: SearchProviders): Promise<SearchProviders> {
  if (!p.local || (await p.local.hasDocuments())) return p;
  if (p.localOnly)
    throw new AppError(
      "search_failed",
      "LOCAL_SEARCH=only, but no collection holds documents: add some with `research-query corpus add PATH`",
    );
  return { web: p.web, academic: p.academic };
}

/** arXiv's terms (one request every 3 s) bind its own servers; a mirror or fixture sets its own pace. */
export function arxivInterval(baseUrl: string): number {
  try {
    return /(^|\.)arxiv\.org$/i.test(new URL(baseUrl).hostname) ? 3000 : 0;
  } catch {
    return 0;
  }
}
