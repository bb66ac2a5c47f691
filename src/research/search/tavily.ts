import { cleanText, isHttpUrl, isoDate, SNIPPET_MAX } from "./clean.ts";
import { providerFetch } from "./http-json.ts";
import { SearchError } from "./search-error.ts";
import type { SearchHit, SearchProvider } from "./types.ts";

interface TavilyResult {
  url?: string;
  title?: string;
  content?: string;
  published_date?: string;
  score?: number;
}

/** Settings of the Tavily API. */
export interface TavilyOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs?: number;
}

/** Tavily search API (POST /search, Bearer auth). `published_date` only comes with topic "news". */
export function createTavily(o: TavilyOptions): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "tavily",
    kind: "web",
    async search(query, { signal, limit, topic }) {
      const body = await providerFetch<{ results?: TavilyResult[] }>("tavily", `${base}/search`, {
        signal,
        timeoutMs: o.timeoutMs,
        method: "POST",
        headers: { authorization: `Bearer ${o.apiKey}` },
        body: {
          query,
          max_results: Math.max(1, Math.min(limit, 20)),
          search_depth: "basic",
          topic: topic === "news" ? "news" : "general",
        },
      });
      if (!body || typeof body !== "object" || !Array.isArray(body.results))
        throw new SearchError("tavily", "bad_payload", "no results array");
      return body.results
        .filter((r) => isHttpUrl(r?.url))
        .slice(0, limit)
        .map(
          (r): SearchHit => ({
            url: r.url!,
            title: cleanText(r.title, 300) || r.url!,
            snippet: cleanText(r.content, SNIPPET_MAX),
            provider: "tavily",
            type: "web",
            published_at: isoDate(r.published_date),
          }),
        );
    },
  };
}
