import type { SearchHit, SearchProvider } from "./types.ts";
import { cleanText, isHttpUrl, isoDate, normalizeDoi, SNIPPET_MAX } from "./clean.ts";
import { httpGet } from "./http-json.ts";
import { SearchError } from "./search-error.ts";

interface Paper {
  paperId?: string; title?: string; abstract?: string | null; url?: string; year?: number; publicationDate?: string | null;
  venue?: string; authors?: { name?: string }[]; externalIds?: { DOI?: string; ArXiv?: string } | null;
  openAccessPdf?: { url?: string } | null;
}

/** Semantic Scholar Graph API paper search (x-api-key optional). */
export function createSemanticScholar(o: { baseUrl: string; apiKey?: string; timeoutMs?: number }): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "semantic_scholar",
    kind: "academic",
    async search(query, { signal, limit }) {
      const params = new URLSearchParams({ query, limit: String(Math.min(limit, 25)), fields: "title,abstract,url,year,authors,venue,externalIds,openAccessPdf,publicationDate" });
      const body = await httpGet<{ data?: Paper[] }>("semantic_scholar", `${base}/graph/v1/paper/search?${params}`, {
        signal, timeoutMs: o.timeoutMs ?? 8000, headers: o.apiKey ? { "x-api-key": o.apiKey } : {},
      });
      if (!body || (body.data !== undefined && !Array.isArray(body.data))) throw new SearchError("semantic_scholar", "bad_payload", "no data array");
      const hits: SearchHit[] = [];
      for (const p of (body.data ?? []).slice(0, limit)) {
        const doi = normalizeDoi(p.externalIds?.DOI);
        const url = [p.url, doi ? `https://doi.org/${doi}` : undefined].find(isHttpUrl);
        if (!url || !p.title) continue;
        const abstract = cleanText(p.abstract ?? "");
        hits.push({
          url, title: cleanText(p.title, 300), snippet: cleanText(abstract, SNIPPET_MAX), provider: "semantic_scholar", type: "academic",
          abstract: abstract || undefined, doi, venue: cleanText(p.venue) || undefined,
          published_at: isoDate(p.publicationDate ?? (p.year ? String(p.year) : undefined)),
          authors: (p.authors ?? []).map((a) => cleanText(a.name)).filter(Boolean).slice(0, 20),
          pdf_url: isHttpUrl(p.openAccessPdf?.url) ? p.openAccessPdf!.url : undefined,
        });
      }
      return hits;
    },
  };
}
