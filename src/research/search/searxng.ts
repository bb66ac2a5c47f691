import type { SearchHit, SearchProvider } from "./types.ts";
import { cleanText, isHttpUrl, isoDate, SNIPPET_MAX } from "./clean.ts";
import { httpGet } from "./http-json.ts";
import { SearchError } from "./search-error.ts";

interface SearxResult { url?: string; title?: string; content?: string; publishedDate?: string | null; engine?: string }

/** SearXNG's JSON API (`format=json` must be enabled in the instance's settings). */
export function createSearxng(o: { baseUrl: string; timeoutMs?: number }): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "searxng",
    kind: "web",
    async search(query, { signal, limit, topic }) {
      const params = new URLSearchParams({ q: query, format: "json", categories: topic ?? "general", safesearch: "1" });
      const body = await httpGet<{ results?: SearxResult[] }>("searxng", `${base}/search?${params}`, { signal, timeoutMs: o.timeoutMs ?? 8000 });
      if (!body || !Array.isArray(body.results)) throw new SearchError("searxng", "bad_payload", "no results array");
      return body.results.filter((r) => isHttpUrl(r.url)).slice(0, limit).map((r): SearchHit => ({
        url: r.url!, title: cleanText(r.title, 300) || r.url!, snippet: cleanText(r.content, SNIPPET_MAX),
        provider: "searxng", type: "web", published_at: isoDate(r.publishedDate ?? undefined),
      }));
    },
  };
}
