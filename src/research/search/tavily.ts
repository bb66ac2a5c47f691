import { isoDate } from "./clean.ts";
import { providerFetch } from "./http-json.ts";
import { SearchError } from "./search-error.ts";
import type { SearchProvider } from "./types.ts";
import { webHits } from "./web-hits.ts";

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
      return webHits("tavily", body.results, limit, (r) => ({
        snippet: r.content,
        published: isoDate(r.published_date),
      }));
    },
  };
}
