import type { SearchHit, SearchProvider } from "./types.ts";
import { cleanText, isHttpUrl, isoDate, SNIPPET_MAX } from "./clean.ts";
import { httpGet } from "./http-json.ts";
import { SearchError } from "./search-error.ts";

interface BraveResult { url?: string; title?: string; description?: string; page_age?: string; age?: string; extra_snippets?: string[] }

/** Brave Search API (web search endpoint, X-Subscription-Token auth). */
export function createBrave(o: { apiKey: string; baseUrl: string; timeoutMs?: number }): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "brave",
    kind: "web",
    async search(query, { signal, limit, topic }) {
      const params = new URLSearchParams({ q: query, count: String(Math.min(limit, 20)), safesearch: "moderate" });
      if (topic === "news") params.set("freshness", "pm");
      const body = await httpGet<{ web?: { results?: BraveResult[] } }>("brave", `${base}/res/v1/web/search?${params}`, {
        signal, timeoutMs: o.timeoutMs ?? 8000, headers: { "x-subscription-token": o.apiKey },
      });
      if (!body || typeof body !== "object") throw new SearchError("brave", "bad_payload", "not an object");
      const results = body.web?.results ?? [];
      return results.filter((r) => isHttpUrl(r.url)).slice(0, limit).map((r): SearchHit => ({
        url: r.url!, title: cleanText(r.title, 300) || r.url!,
        snippet: cleanText([r.description, ...(r.extra_snippets ?? [])].filter(Boolean).join(" "), SNIPPET_MAX),
        provider: "brave", type: "web", published_at: isoDate(r.page_age),
      }));
    },
  };
}
