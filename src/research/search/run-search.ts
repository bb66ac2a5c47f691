import { AppError } from "../../contract/errors.ts";
import { collapse } from "../../util/collapse.ts";
import { failedSearchNextSteps } from "./next-steps.ts";
import type { RunProviders } from "./registry.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchOptions, SearchProvider } from "./types.ts";

export type QuestionKind = "academic" | "general" | "news" | "mixed";

/** One provider call's outcome, for progress events, the timeline and metrics. */
export interface ProviderAttempt {
  provider: string;
  query: string;
  ok: boolean;
  count: number;
  ms: number;
  /** SearchError reason ("http_status", "timeout", "unavailable", …: SearchFailure), or "error" for anything else. */
  error?: string;
  /** Upstream HTTP status when error is "http_status". */
  status?: number;
  /** What the upstream said about the failure, trimmed and scrubbed (SearchError.detail), when it said anything. */
  detail?: string;
}

export interface SearchAllOptions {
  /** The run's signal: aborting it rejects searchAll at once with SearchError reason "aborted". */
  signal: AbortSignal;
  /** Hits asked of each provider per query (default 8). */
  perProviderLimit?: number;
  /** Called as each provider call ends, in completion order. */
  onProviderDone?: (info: ProviderAttempt) => void;
}

/**
 * What the providers found, unranked: one list per provider call that found something
 * (for the web chain, the list of the provider that answered), in the order of the
 * queries, then web before databases. A run ranks all its lists together, once, with
 * mergeAndRank: ranking here too would fuse ranks of already-fused lists.
 */
export interface SearchAllResult {
  lists: SearchHit[][];
  attempts: ProviderAttempt[];
}

/**
 * Which provider groups a kind of question uses. Academic and mixed questions use the
 * databases and the web (the web brings reviews and explainers beside the papers);
 * general and news questions the web only, since papers rarely answer "what happened"
 * and each database call costs seconds. When a kind's groups are all unconfigured the
 * other group stands in, so a box with only OpenAlex still answers general questions.
 * The collections answer every kind: they hold what the team itself wrote or chose.
 */
export function providersFor(kind: QuestionKind, p: RunProviders): { web: boolean; academic: boolean; local: boolean } {
  const web = p.web.length > 0,
    academic = p.academic.length > 0,
    local = p.local !== undefined;
  if (kind === "academic" || kind === "mixed") return { web, academic, local };
  return { web, academic: !web && academic, local };
}

/** Web providers learn what to look for; SearXNG's science category only when no database is in use. */
function webTopic(kind: QuestionKind, academicUsed: boolean): SearchOptions["topic"] {
  if (kind === "news") return "news";
  return kind === "academic" && !academicUsed ? "science" : "general";
}

/**
 * Runs every query against the providers, all queries in parallel: web providers as a
 * fallback chain (the next one only when the one before failed or found nothing, so a
 * SearXNG whose engines are all CAPTCHA-blocked hands over to Brave), academic
 * providers and the collections side by side. One provider failing never fails the run;
 * throws AppError("search_failed") when no provider is configured or none answered.
 */
export async function searchAll(
  queries: string[],
  kind: QuestionKind,
  providers: RunProviders,
  o: SearchAllOptions,
): Promise<SearchAllResult> {
  const use = providersFor(kind, providers);
  if (!use.web && !use.academic && !use.local) {
    throw new AppError(
      "search_failed",
      "no search provider is configured: set SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY, list databases in ACADEMIC_PROVIDERS, or add documents with `research-query corpus add`",
    );
  }
  const unique = [
    ...new Map(
      queries
        .map((q) => q.replace(/\s+/g, " ").trim())
        .filter(Boolean)
        .map((q) => [q.toLowerCase(), q]),
    ).values(),
  ];
  const limit = o.perProviderLimit ?? 8;
  const topic = webTopic(kind, use.academic);
  const attempts: ProviderAttempt[] = [];
  const report = (a: ProviderAttempt) => {
    attempts.push(a);
    o.onProviderDone?.(a);
  };

  const call = async (p: SearchProvider, q: string): Promise<SearchHit[] | null> => {
    const t0 = performance.now();
    const ms = () => Math.round(performance.now() - t0);
    try {
      const hits = await p.search(q, { signal: o.signal, limit, topic: p.kind === "web" ? topic : undefined });
      report({ provider: p.name, query: q, ok: true, count: hits.length, ms: ms() });
      return hits;
    } catch (e) {
      if (o.signal.aborted) throw e;
      const se = e instanceof SearchError ? e : null;
      report({
        provider: p.name,
        query: q,
        ok: false,
        count: 0,
        ms: ms(),
        error: se?.reason ?? "error",
        ...(se?.status ? { status: se.status } : {}),
        ...(se?.detail ? { detail: se.detail } : {}),
      });
      return null;
    }
  };
  const webChain = async (q: string): Promise<SearchHit[]> => {
    for (const p of providers.web) {
      const hits = await call(p, q);
      if (hits?.length) return hits;
    }
    return [];
  };

  const jobs: Promise<SearchHit[]>[] = [];
  for (const q of unique) {
    if (use.web) jobs.push(webChain(q));
    if (use.academic) for (const p of providers.academic) jobs.push(call(p, q).then((h) => h ?? []));
    if (use.local && providers.local) jobs.push(call(providers.local, q).then((h) => h ?? []));
  }
  const lists = await untilAborted(Promise.all(jobs), o.signal);
  providers.reach?.observe(attempts);
  // Collections that found nothing don't make a run whose every other provider failed a
  // "nothing found": the failures are the news.
  const failed = attempts.filter((a) => !a.ok);
  if (failed.length && !attempts.some((a) => a.ok && (a.provider !== "local" || a.count > 0)))
    throw new AppError(
      "search_failed",
      `no search provider answered: ${failureSummary(failed)}.${failedSearchNextSteps(providers, failed)}`,
    );
  return { lists: lists.filter((l) => l.length > 0), attempts };
}

/** Longest failure summary, so search_failed's message stays near 300 characters; details share what the names leave. */
const SUMMARY_MAX = 270;

/**
 * "searxng (unavailable: no results; engines failed: startpage (Suspended: CAPTCHA)), brave
 * (http_status 429: Request rate limit exceeded for plan.)": each provider once (its first
 * failure), with what the upstream said, so a user sees why nothing answered.
 */
function failureSummary(attempts: ProviderAttempt[]): string {
  // A call skipped without asking (arXiv's pacing) tells less than one that asked: it comes last.
  const told = [...attempts.filter((a) => a.error !== "skipped"), ...attempts.filter((a) => a.error === "skipped")];
  const first: ProviderAttempt[] = [];
  for (const a of told) if (!first.some((f) => f.provider === a.provider)) first.push(a);
  const heads = first.map((a) => `${a.provider} (${a.error}${a.status ? ` ${a.status}` : ""}`);
  const withDetail = first.filter((a) => a.detail).length;
  const room = SUMMARY_MAX - heads.reduce((n, h) => n + h.length + 3, 0);
  const each = withDetail ? Math.max(40, Math.floor(room / withDetail) - 2) : 0;
  return first.map((a, i) => `${heads[i]}${a.detail ? `: ${collapse(a.detail, each)}` : ""})`).join(", ");
}

/** Rejects as soon as the signal aborts, even if a provider ignores it. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const abortError = () => new SearchError("search", "aborted", "the run was aborted");
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(abortError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    work
      .then(resolve, (e: unknown) => reject(signal.aborted ? abortError() : e))
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}
