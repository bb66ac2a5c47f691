import { isoDate } from "./clean.ts";
import { providerFetch } from "./http-json.ts";
import { SearchError } from "./search-error.ts";
import type { SearchProvider } from "./types.ts";
import { webHits } from "./web-hits.ts";

interface BraveResult {
  url?: string;
  title?: string;
  description?: string;
  page_age?: string;
  age?: string;
  extra_snippets?: string[];
}

/** Settings of the Brave Search API. */
export interface BraveOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs?: number;
}

/** Brave Search API, web search endpoint (X-Subscription-Token auth, at most 20 results a call). */
export function createBrave(o: BraveOptions): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "brave",
    kind: "web",
    async search(query, { signal, limit, topic }) {
      const params = new URLSearchParams({
        q: query,
        count: String(Math.max(1, Math.min(limit, 20))),
        safesearch: "moderate",
      });
      if (topic === "news") params.set("freshness", "pm");
      const body = await providerFetch<{ web?: { results?: BraveResult[] } }>(
        "brave",
        `${base}/res/v1/web/search?${params}`,
        {
          signal,
          timeoutMs: o.timeoutMs,
          headers: { "x-subscription-token": o.apiKey },
        },
      );
      if (!body || typeof body !== "object" || Array.isArray(body))
        throw new SearchError("brave", "bad_payload", "not an object");
      // Brave leaves out `web` altogether when nothing matched.
      const list = body.web?.results;
      const results = Array.isArray(list) ? list : [];
      return webHits("brave", results, limit, (r) => ({
        snippet: [r.description, ...(r.extra_snippets ?? [])].filter(Boolean).join(" "),
        published: isoDate(r.page_age) ?? isoDate(r.age),
      }));
    },
  };
}
