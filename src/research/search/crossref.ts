import type { SearchHit, SearchProvider } from "./types.ts";
import { cleanText, isHttpUrl, normalizeDoi, SNIPPET_MAX } from "./clean.ts";
import { httpGet } from "./http-json.ts";
import { SearchError } from "./search-error.ts";

interface Item {
  DOI?: string; URL?: string; title?: string[]; abstract?: string; "container-title"?: string[];
  author?: { given?: string; family?: string; name?: string }[];
  published?: { "date-parts"?: number[][] }; issued?: { "date-parts"?: number[][] };
}

const dateParts = (d?: { "date-parts"?: number[][] }) => {
  const p = d?.["date-parts"]?.[0];
  return p && p[0] ? p.map((n, i) => (i ? String(n).padStart(2, "0") : String(n))).join("-") : undefined;
};

/** Crossref works search (DOI metadata; abstracts arrive as JATS XML and are stripped). */
export function createCrossref(o: { baseUrl: string; mailto?: string; timeoutMs?: number }): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "crossref",
    kind: "academic",
    async search(query, { signal, limit }) {
      const params = new URLSearchParams({ query, rows: String(Math.min(limit, 25)), select: "DOI,URL,title,abstract,container-title,author,published,issued" });
      if (o.mailto) params.set("mailto", o.mailto);
      const body = await httpGet<{ message?: { items?: Item[] } }>("crossref", `${base}/works?${params}`, { signal, timeoutMs: o.timeoutMs ?? 10000 });
      const items = body?.message?.items;
      if (!Array.isArray(items)) throw new SearchError("crossref", "bad_payload", "no message.items array");
      const hits: SearchHit[] = [];
      for (const it of items.slice(0, limit)) {
        const doi = normalizeDoi(it.DOI);
        const url = [doi ? `https://doi.org/${doi}` : undefined, it.URL].find(isHttpUrl);
        const title = cleanText(it.title?.[0], 300);
        if (!url || !title) continue;
        const abstract = cleanText((it.abstract ?? "").replace(/<jats:title>[^<]*<\/jats:title>/g, " "));
        hits.push({
          url, title, snippet: cleanText(abstract, SNIPPET_MAX), provider: "crossref", type: "academic",
          abstract: abstract || undefined, doi, venue: cleanText(it["container-title"]?.[0]) || undefined,
          published_at: dateParts(it.published) ?? dateParts(it.issued),
          authors: (it.author ?? []).map((a) => cleanText(a.name ?? [a.given, a.family].filter(Boolean).join(" "))).filter(Boolean).slice(0, 20),
        });
      }
      return hits;
    },
  };
}
