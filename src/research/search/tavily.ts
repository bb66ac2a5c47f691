import type { SearchHit, SearchProvider } from "./types.ts";
import { cleanText, isHttpUrl, isoDate, SNIPPET_MAX } from "./clean.ts";
import { httpGet } from "./http-json.ts";
import { SearchError } from "./search-error.ts";

interface TavilyResult { url?: string; title?: string; content?: string; published_date?: string; score?: number }

/** Tavily search API (POST /search, Bearer auth). */
export function createTavily(o: { apiKey: string; baseUrl: string; timeoutMs?: number }): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "tavily",
    kind: "web",
    async search(query, { signal, limit, topic }) {
      const body = await httpGet<{ results?: TavilyResult[] }>("tavily", `${base}/search`, {
        signal, timeoutMs: o.timeoutMs ?? 10000, method: "POST", headers: { authorization: `Bearer ${o.apiKey}` },
        body: { query, max_results: Math.min(limit, 20), search_depth: "basic", topic: topic === "news" ? "news" : "general" },
      });
      if (!body || !Array.isArray(body.results)) throw new SearchError("tavily", "bad_payload", "no results array");
      return body.results.filter((r) => isHttpUrl(r.url)).slice(0, limit).map((r): SearchHit => ({
        url: r.url!, title: cleanText(r.title, 300) || r.url!, snippet: cleanText(r.content, SNIPPET_MAX),
        provider: "tavily", type: "web", published_at: isoDate(r.published_date),
      }));
    },
  };
}
