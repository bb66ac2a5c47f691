import type { RunProviders } from "./registry.ts";
import type { ProviderAttempt } from "./run-search.ts";
import { CONNECTION_FAILURES } from "./search-error.ts";

/**
 * What each missing or failing part of the search says, with the variable or command that
 * fixes it: the refusal before a run (searchable.ts) and search_failed both say what to do
 * next, not only what went wrong (docs/decisions/0144-errors-that-name-the-next-step.md).
 */
export const NEXT_STEPS = {
  web: "no web search provider is configured (set SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY)",
  configureWeb: "configure a web search provider (SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY)",
  academicOff: "no academic database is on (ACADEMIC_PROVIDERS=none)",
  localOnly: "LOCAL_SEARCH=only keeps the web and the academic databases out",
  network:
    "check this machine's network or proxy (HTTPS_PROXY), or point OPENALEX_URL, ARXIV_URL or CROSSREF_URL at a mirror",
  collections:
    "no collection you can read holds documents (add some with `research-query corpus add PATH --shared`, or upload them on the Documents page)",
  addDocuments: "add documents with `research-query corpus add PATH --shared` (or on the Documents page)",
  collectionsOff: "the collections are off (LOCAL_SEARCH=off)",
  noDatabase:
    "no database with collections was found at DATABASE_PATH (add documents with `research-query corpus add PATH --shared`, which creates it)",
  keys: "check the provider's API key",
  later: "try again in a minute (a provider is limiting requests)",
} as const;

/** " What to do: …" after search_failed's account of each provider, from what failed and what is missing. */
export function failedSearchNextSteps(p: RunProviders, failed: readonly ProviderAttempt[]): string {
  const steps: string[] = [];
  if (failed.some((a) => CONNECTION_FAILURES.has(a.error ?? ""))) steps.push(NEXT_STEPS.network);
  if (failed.some((a) => a.status === 401 || a.status === 403)) steps.push(NEXT_STEPS.keys);
  if (failed.some((a) => a.status === 429 || a.status === 503)) steps.push(NEXT_STEPS.later);
  if (!p.web.length) steps.push(NEXT_STEPS.configureWeb);
  if (!p.local) steps.push(NEXT_STEPS.addDocuments);
  return steps.length ? ` What to do: ${steps.join("; ")}.` : "";
}
