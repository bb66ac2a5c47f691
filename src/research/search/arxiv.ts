import { DOMParser } from "linkedom";
import type { SearchHit, SearchProvider } from "./types.ts";
import { cleanText, isHttpUrl, isoDate, normalizeDoi, SNIPPET_MAX } from "./clean.ts";
import { httpGet } from "./http-json.ts";
import { SearchError } from "./search-error.ts";

/** arXiv's query API answers an Atom feed. */
export function parseArxivFeed(xml: string, limit: number): SearchHit[] {
  if (!/<feed[\s>]/.test(xml)) throw new SearchError("arxiv", "bad_payload", "not an Atom feed");
  const doc = new DOMParser().parseFromString(xml, "text/xml") as unknown as Document;
  const hits: SearchHit[] = [];
  for (const entry of Array.from(doc.getElementsByTagName("entry")).slice(0, limit)) {
    const text = (tag: string) => entry.getElementsByTagName(tag)[0]?.textContent ?? "";
    const links = Array.from(entry.getElementsByTagName("link"));
    const abs = links.find((l) => l.getAttribute("rel") === "alternate")?.getAttribute("href") ?? text("id");
    const pdf = links.find((l) => l.getAttribute("title") === "pdf")?.getAttribute("href") ?? undefined;
    if (!isHttpUrl(abs)) continue;
    const abstract = cleanText(text("summary"));
    hits.push({
      url: abs.replace(/^http:/, "https:"), title: cleanText(text("title"), 300) || abs, snippet: cleanText(abstract, SNIPPET_MAX),
      provider: "arxiv", type: "academic", abstract: abstract || undefined,
      published_at: isoDate(text("published")), venue: "arXiv",
      authors: Array.from(entry.getElementsByTagName("author")).map((a) => cleanText(a.getElementsByTagName("name")[0]?.textContent)).filter(Boolean).slice(0, 20),
      doi: normalizeDoi(text("arxiv:doi")), pdf_url: pdf && isHttpUrl(pdf) ? pdf.replace(/^http:/, "https:") : undefined,
    });
  }
  return hits;
}

/** arXiv API search over all fields. */
export function createArxiv(o: { baseUrl: string; timeoutMs?: number }): SearchProvider {
  const base = o.baseUrl.replace(/\/+$/, "");
  return {
    name: "arxiv",
    kind: "academic",
    async search(query, { signal, limit }) {
      const terms = query.replace(/[^\p{L}\p{N}\s-]/gu, " ").trim().split(/\s+/).filter(Boolean).slice(0, 12);
      const params = new URLSearchParams({ search_query: terms.map((t) => `all:${t}`).join(" AND ") || "all:*", start: "0", max_results: String(Math.min(limit, 25)) });
      const xml = await httpGet<string>("arxiv", `${base}/api/query?${params}`, { signal, timeoutMs: o.timeoutMs ?? 10000, as: "text" });
      return parseArxivFeed(xml, limit);
    },
  };
}
