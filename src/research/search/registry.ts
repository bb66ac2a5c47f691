import type { AcademicProviderName, Config } from "../../config/schema.ts";
import { AppError } from "../../contract/errors.ts";
import type { CollectionReader, Store } from "../../store/types.ts";
import { createLocal, type LocalCollections, type LocalProvider } from "./local.ts";
import { PROVIDER_NAMES, SEARCH_PROVIDERS, type SearchProviderName } from "./providers.ts";
import { AcademicReach, type ReachOptions } from "./reachability.ts";
import type { SearchProvider } from "./types.ts";

/**
 * The configured providers: web ones in fallback order, academic ones to run side by side,
 * and the service's own collections beside both.
 */
export interface SearchProviders {
  web: SearchProvider[];
  academic: SearchProvider[];
  local?: LocalCollections;
  /** LOCAL_SEARCH=only: the collections are the sole source. */
  localOnly?: boolean;
  /** Whether the academic databases can be reached (with any configured). */
  reach?: AcademicReach;
  /** LOCAL_SEARCH=off (rather than no database to search), for what a refusal says. */
  localOff?: boolean;
}

/** Whether the configuration turns on any web search provider (asked of the table's rows, which know their variables). */
export function webSearchConfigured(cfg: Config): boolean {
  return PROVIDER_NAMES.some((n) => {
    const row = SEARCH_PROVIDERS[n];
    return row.kind === "web" && row.build(cfg, row.timeoutMs) !== undefined;
  });
}

/**
 * Builds the providers the configuration names, from the table of providers.ts: web ones
 * in its order, each when its address or key is set; academic databases in the order of
 * ACADEMIC_PROVIDERS. A provider missing from `t` (timeouts in ms) keeps its own default.
 * The collections of `store` join unless LOCAL_SEARCH=off; with LOCAL_SEARCH=only nothing
 * else is built.
 */
export function buildSearchProviders(
  cfg: Config,
  t: Partial<Record<SearchProviderName, number>> = {},
  store?: Store,
  reach?: ReachOptions,
): SearchProviders {
  const local = store && cfg.LOCAL_SEARCH !== "off" ? createLocal({ store }) : undefined;
  if (cfg.LOCAL_SEARCH === "only") return { web: [], academic: [], local, localOnly: true };
  const timeout = (n: SearchProviderName) => t[n] ?? SEARCH_PROVIDERS[n].timeoutMs;
  const web: SearchProvider[] = [];
  for (const n of PROVIDER_NAMES) {
    const row = SEARCH_PROVIDERS[n];
    const p = row.kind === "web" ? row.build(cfg, timeout(n)) : undefined;
    if (p) web.push(p);
  }
  // The config schema's pattern admits only names with an academic row.
  const names =
    cfg.ACADEMIC_PROVIDERS === "none"
      ? []
      : [...new Set(cfg.ACADEMIC_PROVIDERS.split(",").map((n) => n.trim() as AcademicProviderName))];
  const academic = names.map((n) => SEARCH_PROVIDERS[n].build(cfg, timeout(n)));
  const targets = names.map((n) => ({ name: n, url: SEARCH_PROVIDERS[n].url(cfg) }));
  return {
    web,
    academic,
    ...(local ? { local } : {}),
    ...(names.length ? { reach: new AcademicReach(targets, reach) } : {}),
    ...(cfg.LOCAL_SEARCH === "off" ? { localOff: true } : {}),
  };
}

/** The providers one run searches: `local` kept to the collections its caller may read. */
export interface RunProviders {
  web: SearchProvider[];
  academic: SearchProvider[];
  local?: LocalProvider;
  /** Told what the run's database calls met, so a box gone offline refuses the next question uncharged. */
  reach?: AcademicReach;
}

/**
 * The providers of one run: `local` only while a collection the caller may read holds
 * documents, asked per run since collections are filled and shared while the server runs.
 * LOCAL_SEARCH=only with nothing to read fails the run at once, saying what to do.
 */
export async function providersForRun(p: SearchProviders, reader: CollectionReader): Promise<RunProviders> {
  const local = p.local ? await p.local.forReader(reader) : null;
  const reach = p.reach ? { reach: p.reach } : {};
  if (local) return { web: p.web, academic: p.academic, local, ...reach };
  if (p.local && p.localOnly)
    throw new AppError(
      "search_failed",
      "LOCAL_SEARCH=only, but no collection this caller may read holds documents: upload some on the Documents page, or share some with `research-query corpus add PATH --shared`",
    );
  return { web: p.web, academic: p.academic, ...reach };
}
