import { collapse } from "../../util/collapse.ts";
import { keepUpstream } from "../../util/upstream-text.ts";
import { cleanText, isHttpUrl, isoDate, normalizeDoi } from "./clean.ts";
import { providerFetch } from "./http-json.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchProvider } from "./types.ts";
import { webHits } from "./web-hits.ts";

interface SearxResult {
  url?: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
  engine?: string;
  engines?: string[];
  // Science engines (arxiv, pubmed, crossref, google scholar) fill these; template "paper.html".
  template?: string;
  type?: string;
  doi?: string | null;
  pdf_url?: string | null;
  journal?: string | null;
  authors?: unknown;
}

interface SearxAnswer {
  results?: SearxResult[];
  /** [engine, reason] pairs, e.g. ["startpage", "Suspended: CAPTCHA"]. */
  unresponsive_engines?: unknown;
}

/** Settings of a SearXNG instance. */
export interface SearxngOptions {
  baseUrl: string;
  timeoutMs?: number;
}

/** Engines listed at most in a failure message; the rest are counted. */
const ENGINES_SHOWN = 6;

/** "startpage (Suspended: CAPTCHA), duckduckgo (timeout)" from SearXNG's unresponsive_engines. */
function unresponsiveEngines(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((e) => {
    const [name, why] = Array.isArray(e) ? e : [e];
    const n = collapse(name, 40);
    if (!n) return [];
    const w = collapse(why, 80);
    return [w ? `${n} (${w})` : n];
  });
}

/** A result relayed from a paper database, with what lets it merge with the databases' own hits. */
function paperOf(r: SearxResult): Pick<SearchHit, "doi" | "pdf_url" | "authors" | "venue"> | undefined {
  const doi = normalizeDoi(r.doi);
  const pdf = isHttpUrl(r.pdf_url) ? r.pdf_url : undefined;
  if (!doi && !pdf && r.template !== "paper.html" && r.type !== "paper") return undefined;
  const authors = (Array.isArray(r.authors) ? r.authors : typeof r.authors === "string" ? [r.authors] : [])
    .map((a: unknown) => cleanText(a, 120))
    .filter(Boolean)
    .slice(0, 20);
  return {
    doi,
    pdf_url: pdf,
    authors: authors.length ? authors : undefined,
    venue: cleanText(r.journal, 200) || undefined,
  };
}

/** SearXNG's JSON API (`format: json` must be listed under `search.formats` in the instance's settings). */
export function createSearxng(o: SearxngOptions): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "searxng",
    kind: "web",
    async search(query, { signal, limit, topic }) {
      const params = new URLSearchParams({ q: query, format: "json", categories: topic ?? "general", safesearch: "1" });
      const body = await providerFetch<SearxAnswer>("searxng", `${base}/search?${params}`, {
        signal,
        timeoutMs: o.timeoutMs,
      }).catch((e: unknown) => {
        // The stock instance answers 403 to format=json; say what to change.
        if (e instanceof SearchError && e.status === 403)
          throw new SearchError(
            "searxng",
            "http_status",
            `HTTP 403${e.detail ? `: ${e.detail}` : ""} (is json enabled in search.formats of settings.yml?)`,
            403,
            e.detail,
          );
        throw e;
      });
      if (!body || typeof body !== "object" || !Array.isArray(body.results))
        throw new SearchError("searxng", "bad_payload", "no results array");
      // Blocked engines (CAPTCHAs, rate limits) still make an HTTP 200; nothing found while
      // engines failed is SearXNG unable to search, not a query without results.
      const down = unresponsiveEngines(body.unresponsive_engines);
      if (!body.results.length && down.length) {
        const more = down.length > ENGINES_SHOWN ? ` and ${down.length - ENGINES_SHOWN} more` : "";
        const list = `${down.slice(0, ENGINES_SHOWN).join(", ")}${more}`;
        const detail = keepUpstream(`no results; engines failed: ${list}`, [], 300);
        throw new SearchError("searxng", "unavailable", detail, undefined, detail);
      }
      return webHits("searxng", body.results, limit, (r) => ({
        snippet: r.content,
        published: isoDate(r.publishedDate ?? undefined),
        paper: paperOf(r),
      }));
    },
  };
}
