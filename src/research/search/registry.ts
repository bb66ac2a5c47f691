import type { AcademicProviderName, Config } from "../../config/schema.ts";
import { AppError } from "../../contract/errors.ts";
import type { Store } from "../../store/types.ts";
import { createLocal, type LocalProvider } from "./local.ts";
import { PROVIDER_NAMES, SEARCH_PROVIDERS, type SearchProviderName } from "./providers.ts";
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
