import { cleanText, isHttpUrl, SNIPPET_MAX } from "./clean.ts";
import type { SearchHit } from "./types.ts";

/** What differs between web providers' results: where the snippet and the date come from. */
interface WebResultParts {
  snippet: unknown;
  /** Already an ISO date (clean.ts isoDate), or undefined. */
  published: string | undefined;
  /**
   * Set when the result is a paper a web provider relays from a database (SearXNG's
   * science engines): the hit is academic and its DOI merges it with the databases' hits.
   */
  paper?: Pick<SearchHit, "doi" | "pdf_url" | "authors" | "venue">;
}

/**
 * A web provider's results as hits, by one rule for all of them: http(s) URLs only, at most
 * `limit`, title and snippet cleaned and capped, the URL standing in for a missing title.
 */
export function webHits<R extends { url?: string; title?: string }>(
  provider: string,
  results: R[],
  limit: number,
  parts: (r: R) => WebResultParts,
): SearchHit[] {
  return results
    .filter((r) => isHttpUrl(r?.url))
    .slice(0, limit)
    .map((r) => {
      const { snippet, published, paper } = parts(r);
      const url = r.url as string;
      return {
        url,
        title: cleanText(r.title, 300) || url,
        snippet: cleanText(snippet, SNIPPET_MAX),
        provider,
        type: paper ? "academic" : "web",
        published_at: published,
        ...paper,
      };
    });
}
