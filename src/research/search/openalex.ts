import { cleanText, isHttpUrl, isoDate, normalizeDoi, SNIPPET_MAX } from "./clean.ts";
import { providerFetch } from "./http-json.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchProvider } from "./types.ts";

interface Work {
  id?: string;
  doi?: string | null;
  display_name?: string | null;
  title?: string | null;
  publication_date?: string | null;
  abstract_inverted_index?: Record<string, number[]> | null;
  primary_location?: {
    landing_page_url?: string | null;
    pdf_url?: string | null;
    source?: { display_name?: string | null } | null;
  } | null;
  best_oa_location?: { pdf_url?: string | null; landing_page_url?: string | null } | null;
  open_access?: { oa_url?: string | null } | null;
  authorships?: { author?: { display_name?: string | null } | null }[] | null;
}

/** Settings of the OpenAlex API; `mailto` joins the polite pool. */
export interface OpenAlexOptions {
  baseUrl: string;
  mailto?: string;
  timeoutMs?: number;
}

const FIELDS =
  "id,doi,display_name,title,publication_date,abstract_inverted_index,primary_location,best_oa_location,open_access,authorships";

/** OpenAlex stores abstracts as word → positions; this puts the words back in order. */
export function rebuildAbstract(index: Record<string, number[]> | null | undefined): string {
  if (!index || typeof index !== "object") return "";
  const words: string[] = [];
  for (const [w, positions] of Object.entries(index)) {
    if (!Array.isArray(positions)) continue;
    // A bogus position must not allocate a huge sparse array.
    for (const p of positions) if (Number.isInteger(p) && p >= 0 && p < 20000) words[p] = w;
  }
  return words.filter((w) => w !== undefined).join(" ");
}

/** OpenAlex `oa_url` is often a landing page; only take it as a PDF when it looks like one. */
const looksLikePdf = (u: string) => /\.pdf($|[?#])|\/pdf(\/|$|\?)/i.test(u);

/** Maps one OpenAlex work to a hit; null when it has no usable address. */
export function openAlexHit(w: Work): SearchHit | null {
  const doi = normalizeDoi(w.doi);
  const url = [w.primary_location?.landing_page_url, doi ? `https://doi.org/${doi}` : null, w.id].find(isHttpUrl);
  if (!url) return null;
  const abstract = cleanText(rebuildAbstract(w.abstract_inverted_index));
  const oa = w.open_access?.oa_url;
  const pdf = [
    w.best_oa_location?.pdf_url,
    w.primary_location?.pdf_url,
    isHttpUrl(oa) && looksLikePdf(oa) ? oa : null,
  ].find(isHttpUrl);
  return {
    url,
    title: cleanText(w.display_name ?? w.title, 300) || url,
    snippet: cleanText(abstract, SNIPPET_MAX),
    provider: "openalex",
    type: "academic",
    abstract: abstract || undefined,
    doi,
    published_at: isoDate(w.publication_date),
    venue: cleanText(w.primary_location?.source?.display_name) || undefined,
    authors: (w.authorships ?? [])
      .map((a) => cleanText(a?.author?.display_name))
      .filter(Boolean)
      .slice(0, 20),
    pdf_url: pdf,
  };
}

/** OpenAlex works search. */
export function createOpenAlex(o: OpenAlexOptions): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "openalex",
    kind: "academic",
    async search(query, { signal, limit }) {
      // A comma separates filters in OpenAlex's parameter grammar; in a search it only hurts.
      const params = new URLSearchParams({
        search: query.replace(/,/g, " "),
        "per-page": String(Math.max(1, Math.min(limit, 25))),
        select: FIELDS,
      });
      if (o.mailto) params.set("mailto", o.mailto);
      const body = await providerFetch<{ results?: Work[] }>("openalex", `${base}/works?${params}`, {
        signal,
        timeoutMs: o.timeoutMs,
      });
      if (!body || typeof body !== "object" || !Array.isArray(body.results))
        throw new SearchError("openalex", "bad_payload", "no results array");
      return body.results
        .slice(0, limit)
        .map(openAlexHit)
        .filter((h): h is SearchHit => h !== null);
    },
  };
}
