import type { SearchHit, SearchProvider } from "./types.ts";
import { cleanText, isHttpUrl, isoDate, normalizeDoi, SNIPPET_MAX } from "./clean.ts";
import { httpGet } from "./http-json.ts";
import { SearchError } from "./search-error.ts";

interface Work {
  id?: string; doi?: string | null; display_name?: string; title?: string; publication_date?: string;
  abstract_inverted_index?: Record<string, number[]> | null;
  primary_location?: { landing_page_url?: string | null; pdf_url?: string | null; source?: { display_name?: string } | null } | null;
  best_oa_location?: { pdf_url?: string | null; landing_page_url?: string | null } | null;
  open_access?: { oa_url?: string | null } | null;
  authorships?: { author?: { display_name?: string } }[];
}

/** OpenAlex stores abstracts as word → positions; this puts the words back in order. */
export function rebuildAbstract(index: Record<string, number[]> | null | undefined): string {
  if (!index) return "";
  const words: string[] = [];
  for (const [w, positions] of Object.entries(index)) for (const p of positions) if (p >= 0 && p < 20000) words[p] = w;
  return words.filter((w) => w !== undefined).join(" ");
}

/** OpenAlex works search; `mailto` joins the polite pool. */
export function createOpenAlex(o: { baseUrl: string; mailto?: string; timeoutMs?: number }): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "openalex",
    kind: "academic",
    async search(query, { signal, limit }) {
      const params = new URLSearchParams({ search: query, "per-page": String(Math.min(limit, 25)) });
      if (o.mailto) params.set("mailto", o.mailto);
      const body = await httpGet<{ results?: Work[] }>("openalex", `${base}/works?${params}`, { signal, timeoutMs: o.timeoutMs ?? 8000 });
      if (!body || !Array.isArray(body.results)) throw new SearchError("openalex", "bad_payload", "no results array");
      const hits: SearchHit[] = [];
      for (const w of body.results.slice(0, limit)) {
        const doi = normalizeDoi(w.doi);
        const url = [w.primary_location?.landing_page_url, doi ? `https://doi.org/${doi}` : null, w.id].find(isHttpUrl);
        if (!url) continue;
        const abstract = cleanText(rebuildAbstract(w.abstract_inverted_index));
        const pdf = [w.best_oa_location?.pdf_url, w.primary_location?.pdf_url, w.open_access?.oa_url].find((u) => isHttpUrl(u) && /\.pdf($|\?)|\/pdf\//i.test(u));
        hits.push({
          url, title: cleanText(w.display_name ?? w.title, 300) || url, snippet: cleanText(abstract, SNIPPET_MAX),
          provider: "openalex", type: "academic", abstract: abstract || undefined, doi,
          published_at: isoDate(w.publication_date), venue: cleanText(w.primary_location?.source?.display_name) || undefined,
          authors: (w.authorships ?? []).map((a) => cleanText(a.author?.display_name)).filter(Boolean).slice(0, 20),
          pdf_url: pdf ?? undefined,
        });
      }
      return hits;
    },
  };
}
