import { isoDate } from "./clean.ts";
import { providerFetch } from "./http-json.ts";
import { SearchError } from "./search-error.ts";
import type { SearchProvider } from "./types.ts";
import { webHits } from "./web-hits.ts";

interface SearxResult {
  url?: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
  engine?: string;
  engines?: string[];
}

/** Settings of a SearXNG instance. */
export interface SearxngOptions {
  baseUrl: string;
  timeoutMs?: number;
}

/** SearXNG's JSON API (`format: json` must be listed under `search.formats` in the instance's settings). */
export function createSearxng(o: SearxngOptions): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "searxng",
    kind: "web",
    async search(query, { signal, limit, topic }) {
      const params = new URLSearchParams({ q: query, format: "json", categories: topic ?? "general", safesearch: "1" });
      const body = await providerFetch<{ results?: SearxResult[] }>("searxng", `${base}/search?${params}`, {
        signal,
        timeoutMs: o.timeoutMs,
      }).catch((e: unknown) => {
        // The stock instance answers 403 to format=json; say what to change.
        if (e instanceof SearchError && e.status === 403)
          throw new SearchError(
            "searxng",
            "http_status",
            `HTTP 403${e.detail ? `: ${e.detail}` : ""} (is json enabled in search.formats of settings.yml?)`,
            403,
            e.detail,
          );
        throw e;
      });
      if (!body || typeof body !== "object" || !Array.isArray(body.results))
        throw new SearchError("searxng", "bad_payload", "no results array");
      return webHits("searxng", body.results, limit, (r) => ({
        snippet: r.content,
        published: isoDate(r.publishedDate ?? undefined),
      }));
    },
  };
}
