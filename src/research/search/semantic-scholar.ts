import { cleanText, isHttpUrl, isoDate, normalizeDoi, SNIPPET_MAX } from "./clean.ts";
import { providerFetch } from "./http-json.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchProvider } from "./types.ts";

interface Paper {
  paperId?: string;
  title?: string | null;
  abstract?: string | null;
  url?: string | null;
  year?: number | null;
  publicationDate?: string | null;
  venue?: string | null;
  authors?: { name?: string | null }[] | null;
  externalIds?: { DOI?: string; ArXiv?: string } | null;
  openAccessPdf?: { url?: string | null } | null;
}

/** Settings of the Semantic Scholar Graph API; the key is optional (shared rate limit without). */
export interface SemanticScholarOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
}

const FIELDS = "title,abstract,url,year,authors,venue,externalIds,openAccessPdf,publicationDate";

/** Maps one paper to a hit; null without a title or an address. */
export function semanticScholarHit(p: Paper): SearchHit | null {
  const doi = normalizeDoi(p.externalIds?.DOI);
  const url = [p.url, doi ? `https://doi.org/${doi}` : undefined].find(isHttpUrl);
  const title = cleanText(p.title, 300);
  if (!url || !title) return null;
  const abstract = cleanText(p.abstract ?? "");
  const pdf = p.openAccessPdf?.url;
  return {
    url,
    title,
    snippet: cleanText(abstract, SNIPPET_MAX),
    provider: "semantic_scholar",
    type: "academic",
    abstract: abstract || undefined,
    doi,
    venue: cleanText(p.venue) || undefined,
    published_at: isoDate(p.publicationDate ?? (p.year ? String(p.year) : undefined)),
    authors: (Array.isArray(p.authors) ? p.authors : [])
      .map((a) => cleanText(a?.name))
      .filter(Boolean)
      .slice(0, 20),
    pdf_url: isHttpUrl(pdf) ? pdf : undefined,
  };
}

/** Semantic Scholar Graph API paper search (x-api-key when given). */
export function createSemanticScholar(o: SemanticScholarOptions): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "semantic_scholar",
    kind: "academic",
    async search(query, { signal, limit }) {
      const params = new URLSearchParams({ query, limit: String(Math.max(1, Math.min(limit, 25))), fields: FIELDS });
      const body = await providerFetch<{ data?: Paper[] }>(
        "semantic_scholar",
        `${base}/graph/v1/paper/search?${params}`,
        {
          signal,
          timeoutMs: o.timeoutMs,
          headers: o.apiKey ? { "x-api-key": o.apiKey } : {},
        },
      );
      // No matches come back as {total: 0} without `data`.
      if (!body || typeof body !== "object" || (body.data !== undefined && !Array.isArray(body.data)))
        throw new SearchError("semantic_scholar", "bad_payload", "no data array");
      return (body.data ?? [])
        .slice(0, limit)
        .map(semanticScholarHit)
        .filter((h): h is SearchHit => h !== null);
    },
  };
}
