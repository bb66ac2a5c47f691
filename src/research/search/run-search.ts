import { AppError } from "../../errors.ts";
import { mergeAndRank, type RankedHit } from "./merge.ts";
import type { SearchProviders } from "./registry.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchProvider } from "./types.ts";

export type QuestionKind = "academic" | "general" | "news" | "mixed";

/** One provider call's outcome, for progress events, the timeline and metrics. */
export interface ProviderAttempt { provider: string; query: string; ok: boolean; count: number; ms: number; error?: string }

export interface SearchAllOptions {
  signal: AbortSignal;
  perProviderLimit?: number;
  onAttempt?: (a: ProviderAttempt) => void;
}

/**
 * Which databases a kind of question reads: academic questions use the academic
 * databases and the web; general and news questions the web (academic databases only
 * when no web provider is configured, so an air-gapped box with OpenAlex still answers).
 */
function plan(kind: QuestionKind, p: SearchProviders): { web: boolean; academic: boolean } {
  if (kind === "academic" || kind === "mixed") return { web: p.web.length > 0, academic: p.academic.length > 0 };
  return { web: p.web.length > 0, academic: p.web.length === 0 && p.academic.length > 0 };
}

/**
 * Runs every query against the providers in parallel: web providers as a fallback chain
 * (the next one only when the one before fails), academic providers side by side. One
 * provider failing never fails the run; all failing is search_failed.
 */
export async function searchAll(queries: string[], kind: QuestionKind, providers: SearchProviders, o: SearchAllOptions): Promise<{ hits: RankedHit[]; attempts: ProviderAttempt[] }> {
  const use = plan(kind, providers);
  if (!use.web && !use.academic) {
    throw new AppError("search_failed", "no search provider is configured: set SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY, or enable ACADEMIC_PROVIDERS");
  }
  const limit = o.perProviderLimit ?? 8;
  const topic = kind === "news" ? "news" : kind === "academic" ? "science" : "general";
  const attempts: ProviderAttempt[] = [];
  const call = async (p: SearchProvider, q: string): Promise<SearchHit[]> => {
    const t0 = performance.now();
    try {
      const hits = await p.search(q, { signal: o.signal, limit, topic: p.kind === "web" ? (topic === "science" ? "general" : topic) : undefined });
      const a = { provider: p.name, query: q, ok: true, count: hits.length, ms: Math.round(performance.now() - t0) };
      attempts.push(a); o.onAttempt?.(a);
      return hits;
    } catch (e) {
      if (o.signal.aborted) throw e;
      const a = { provider: p.name, query: q, ok: false, count: 0, ms: Math.round(performance.now() - t0), error: e instanceof SearchError ? e.reason : "network" };
      attempts.push(a); o.onAttempt?.(a);
      return Promise.reject(e);
    }
  };
  const webChain = async (q: string): Promise<SearchHit[]> => {
    for (const p of providers.web) {
      try { return await call(p, q); } catch (e) { if (o.signal.aborted) throw e; }
    }
    return [];
  };
  const jobs: Promise<SearchHit[]>[] = [];
  for (const q of queries) {
    if (use.web) jobs.push(webChain(q));
    if (use.academic) for (const p of providers.academic) jobs.push(call(p, q).catch((e) => { if (o.signal.aborted) throw e; return []; }));
  }
  const lists = await Promise.all(jobs);
  if (!attempts.some((a) => a.ok)) {
    const failed = [...new Set(attempts.map((a) => `${a.provider} (${a.error})`))].join(", ");
    throw new AppError("search_failed", `no search provider answered: ${failed}`);
  }
  return { hits: mergeAndRank(lists, queries.join(" ")), attempts };
}
