import { DOMParser } from "linkedom";
import { STOPWORDS } from "../../text/stopwords.ts";
import { collapse } from "../../util/collapse.ts";
import { isHttpUrl, isoDate, normalizeDoi, SNIPPET_MAX } from "./clean.ts";
import { providerFetch, SLOW_PROVIDER_TIMEOUT_MS } from "./http-json.ts";
import { Pacer, sleepUnlessAborted } from "./pacer.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchProvider } from "./types.ts";

/** Settings of the arXiv API. */
export interface ArxivOptions {
  baseUrl: string;
  timeoutMs?: number;
  /** Least time between two calls from this process (arXiv's terms: one request every 3 s); 0 = unpaced. */
  minIntervalMs?: number;
  /** Longest a call may wait for its slot before being skipped (reported as its last call's failure to connect, or "skipped"). */
  maxWaitMs?: number;
  /** The pacer's clock; tests move it by hand instead of waiting out the interval. */
  now?: () => number;
  /** The wait for a slot (default: a timer); tests record it instead of timing it. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

// arXiv's own links say http; only its hosts get upgraded (fixtures and mirrors keep theirs).
const upgrade = (u: string) => u.replace(/^http:\/\/((export\.)?arxiv\.org)\//i, "https://$1/");

const parseXml = (xml: string) => new DOMParser().parseFromString(xml, "text/xml") as unknown as Document;
const childText = (el: Element, tag: string) => el.getElementsByTagName(tag)[0]?.textContent ?? "";

/** The summary of arXiv's error entry (id …/api/errors#…, title "Error"), if the feed is one. */
function errorEntry(doc: Document): string | undefined {
  const entry = Array.from(doc.getElementsByTagName("entry")).find((e) => /\/api\/errors/.test(childText(e, "id")));
  return entry ? collapse(childText(entry, "summary"), 200) || "error" : undefined;
}

/** What arXiv says in an error answer: the error entry of its Atom feed (sent with HTTP 400). */
export function arxivErrorText(body: string): string | undefined {
  return /<feed[\s>]/.test(body) ? errorEntry(parseXml(body)) : undefined;
}

/**
 * Parses arXiv's Atom feed. arXiv has reported a bad query both as HTTP 400 and as HTTP
 * 200 with a single entry titled "Error" (id …/api/errors#…), and throttling as a
 * plain-text body; at 200 both are bad_payload rather than a quiet zero-hit search.
 */
export function parseArxivFeed(xml: string, limit: number): SearchHit[] {
  if (!/<feed[\s>]/.test(xml)) throw new SearchError("arxiv", "bad_payload", `not an Atom feed: ${collapse(xml, 80)}`);
  const doc = parseXml(xml);
  const error = errorEntry(doc);
  if (error !== undefined) throw new SearchError("arxiv", "bad_payload", `arXiv error: ${error}`, undefined, error);
  const hits: SearchHit[] = [];
  for (const entry of Array.from(doc.getElementsByTagName("entry"))) {
    const text = (tag: string) => childText(entry, tag);
    if (hits.length >= limit) break;
    const links = Array.from(entry.getElementsByTagName("link"));
    const abs = links.find((l) => l.getAttribute("rel") === "alternate")?.getAttribute("href") ?? text("id").trim();
    const pdf = links.find((l) => l.getAttribute("title") === "pdf")?.getAttribute("href") ?? undefined;
    if (!isHttpUrl(abs)) continue;
    // The parser already decoded entities; no tag stripping, so "p<0.05" in an abstract stays.
    const abstract = collapse(text("summary"));
    hits.push({
      url: upgrade(abs),
      title: collapse(text("title"), 300) || abs,
      snippet: collapse(abstract, SNIPPET_MAX),
      provider: "arxiv",
      type: "academic",
      abstract: abstract || undefined,
      published_at: isoDate(text("published")),
      venue: "arXiv",
      authors: Array.from(entry.getElementsByTagName("author"))
        .map((a) => collapse(a.getElementsByTagName("name")[0]?.textContent))
        .filter(Boolean)
        .slice(0, 20),
      doi: normalizeDoi(text("arxiv:doi")),
      pdf_url: pdf && isHttpUrl(pdf) ? upgrade(pdf) : undefined,
    });
  }
  return hits;
}

/**
 * A free-text question as arXiv's Lucene-style `search_query`: every content word
 * required in any field. Function words are dropped since AND-ing "the" or "what"
 * would only narrow nothing or confuse the parser.
 */
export function arxivQuery(query: string): string {
  const words = query
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, " ")
    .split(/\s+/)
    .map((w) => w.replace(/^-+|-+$/g, ""))
    .filter((w) => w && !STOPWORDS.has(w) && !/^(and|or|andnot)$/.test(w));
  return [...new Set(words)]
    .slice(0, 8)
    .map((t) => `all:${t}`)
    .join(" AND ");
}

/** arXiv API search over all fields. */
export function createArxiv(o: ArxivOptions): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  const pacer = new Pacer(o.minIntervalMs ?? 0);
  // The outcome of the last call made: what a call skipped by the pacing reports (below).
  let last: Promise<SearchError | null> = Promise.resolve(null);
  /**
   * A call the pacing turned away made no request, so it is no rate limit of arXiv's: on a box
   * with no network it reports what the call it made way for met (that call's failure to
   * connect); otherwise that it was skipped, waiting for its turn past what the run can afford.
   */
  const skipped = async (signal: AbortSignal): Promise<SearchError> => {
    const before = await Promise.race([
      last,
      new Promise<null>((r) => signal.addEventListener("abort", () => r(null), { once: true })),
    ]);
    if (signal.aborted) return new SearchError("arxiv", "aborted", "the run was aborted");
    if (before && (before.reason === "network" || before.reason === "timeout"))
      return new SearchError("arxiv", before.reason, `not asked: the call before it failed (${before.message})`);
    return new SearchError(
      "arxiv",
      "skipped",
      "not asked: arXiv takes one request every 3 s and the run's search could not wait for its turn",
    );
  };
  return {
    name: "arxiv",
    kind: "academic",
    async search(query, { signal, limit }) {
      const q = arxivQuery(query);
      if (!q) return [];
      const wait = pacer.reserve(o.maxWaitMs ?? 2000, o.now?.());
      if (wait === null) throw await skipped(signal);
      const asked = (async () => {
        await (o.sleep ?? sleepUnlessAborted)(wait, signal).catch(() => {
          throw new SearchError("arxiv", "aborted", "the run was aborted");
        });
        const params = new URLSearchParams({
          search_query: q,
          start: "0",
          max_results: String(Math.max(1, Math.min(limit, 25))),
        });
        const xml = await providerFetch<string>("arxiv", `${base}/api/query?${params}`, {
          signal,
          timeoutMs: o.timeoutMs ?? SLOW_PROVIDER_TIMEOUT_MS,
          as: "text",
          errorText: arxivErrorText,
        });
        return parseArxivFeed(xml, limit);
      })();
      // Taken with the slot, so a call turned away meanwhile waits for this one's outcome.
      last = asked.then(
        () => null,
        (e: unknown) => (e instanceof SearchError ? e : null),
      );
      return asked;
    },
  };
}

/** arXiv's terms (one request every 3 s) bind its own servers; a mirror or fixture sets its own pace. */
export function arxivInterval(baseUrl: string): number {
  try {
    return /(^|\.)arxiv\.org$/i.test(new URL(baseUrl).hostname) ? 3000 : 0;
  } catch {
    return 0;
  }
}
