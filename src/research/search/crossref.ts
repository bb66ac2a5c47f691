import { cleanText, isHttpUrl, normalizeDoi, SNIPPET_MAX } from "./clean.ts";
import { providerFetch, SLOW_PROVIDER_TIMEOUT_MS } from "./http-json.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchProvider } from "./types.ts";

type DateParts = { "date-parts"?: (number | null)[][] } | null;
interface Item {
  DOI?: string;
  URL?: string;
  title?: string[];
  abstract?: string;
  "container-title"?: string[];
  author?: { given?: string; family?: string; name?: string }[];
  published?: DateParts;
  issued?: DateParts;
}

/** Settings of the Crossref API; `mailto` joins the polite pool. */
export interface CrossrefOptions {
  baseUrl: string;
  mailto?: string;
  timeoutMs?: number;
}

/** Crossref's [[year, month, day]] (month and day optional, year null when unknown) to YYYY[-MM[-DD]]. */
export function crossrefDate(d: DateParts | undefined): string | undefined {
  const p = d?.["date-parts"]?.[0];
  if (!p || typeof p[0] !== "number") return undefined;
  const parts: string[] = [];
  for (const [i, n] of p.slice(0, 3).entries()) {
    if (typeof n !== "number") break;
    parts.push(i ? String(n).padStart(2, "0") : String(n));
  }
  return parts.join("-");
}

/** JATS abstract to text; the "Abstract" heading and section titles aren't part of it. */
export function jatsToText(jats: string | undefined): string {
  return cleanText((jats ?? "").replace(/<jats:title>[\s\S]*?<\/jats:title>/g, " "));
}

/** Maps one Crossref item to a hit; null without a title or an address. */
export function crossrefHit(it: Item): SearchHit | null {
  const doi = normalizeDoi(it.DOI);
  const url = [doi ? `https://doi.org/${doi}` : undefined, it.URL].find(isHttpUrl);
  const title = cleanText(it.title?.[0], 300);
  if (!url || !title) return null;
  const abstract = jatsToText(it.abstract);
  return {
    url,
    title,
    snippet: cleanText(abstract, SNIPPET_MAX),
    provider: "crossref",
    type: "academic",
    abstract: abstract || undefined,
    doi,
    venue: cleanText(it["container-title"]?.[0]) || undefined,
    published_at: crossrefDate(it.published) ?? crossrefDate(it.issued),
    authors: (Array.isArray(it.author) ? it.author : [])
      .map((a) => cleanText(a?.name ?? [a?.given, a?.family].filter(Boolean).join(" ")))
      .filter(Boolean)
      .slice(0, 20),
  };
}

/** Crossref works search (DOI metadata; abstracts arrive as JATS XML and are stripped). */
export function createCrossref(o: CrossrefOptions): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "crossref",
    kind: "academic",
    async search(query, { signal, limit }) {
      // `select` keeps reference lists (often most of a record) off the wire.
      const params = new URLSearchParams({
        query,
        rows: String(Math.max(1, Math.min(limit, 25))),
        select: "DOI,URL,title,abstract,container-title,author,published,issued",
      });
      if (o.mailto) params.set("mailto", o.mailto);
      const body = await providerFetch<{ message?: { items?: Item[] } }>("crossref", `${base}/works?${params}`, {
        signal,
        timeoutMs: o.timeoutMs ?? SLOW_PROVIDER_TIMEOUT_MS,
      });
      const items = body && typeof body === "object" ? body.message?.items : undefined;
      if (!Array.isArray(items)) throw new SearchError("crossref", "bad_payload", "no message.items array");
      return items
        .slice(0, limit)
        .map(crossrefHit)
        .filter((h): h is SearchHit => h !== null);
    },
  };
}
