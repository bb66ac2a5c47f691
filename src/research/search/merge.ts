import { normalizeDoi } from "./clean.ts";
import type { SearchHit } from "./types.ts";

export type RankedHit = SearchHit & { score: number; providers: string[] };

const TRACKING = /^(utm_\w+|fbclid|gclid|mc_cid|mc_eid|ref|ref_src|igshid|_hs\w+)$/i;

/** URL identity for dedupe: host lower-cased without www., no fragment, no tracking params, no trailing slash. */
export function normalizeUrl(u: string): string {
  try {
    const url = new URL(u);
    url.hash = "";
    for (const k of [...url.searchParams.keys()]) if (TRACKING.test(k)) url.searchParams.delete(k);
    url.searchParams.sort();
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    const path = url.pathname.replace(/\/+$/, "") || "";
    return `${host}${url.port ? `:${url.port}` : ""}${path}${url.search}`;
  } catch { return u; }
}

const tokens = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
const longer = (a?: string, b?: string) => ((b?.length ?? 0) > (a?.length ?? 0) ? b : a);

/**
 * Merges result lists (one per provider × query): dedupe by DOI and normalised URL,
 * score by reciprocal rank fusion (k = 60) plus a small bonus for overlap with the
 * question, then cap each host at two places in the head of the list so one site
 * can't crowd out the rest (pushed down, not dropped).
 */
export function mergeAndRank(lists: SearchHit[][], question: string): RankedHit[] {
  const byKey = new Map<string, RankedHit>();
  const alias = new Map<string, string>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const doi = normalizeDoi(hit.doi);
      const keys = [doi ? `doi:${doi}` : null, `url:${normalizeUrl(hit.url)}`].filter((k): k is string => !!k);
      const existing = keys.map((k) => alias.get(k)).find((k) => k && byKey.has(k));
      const rrf = 1 / (60 + rank + 1);
      if (existing) {
        const m = byKey.get(existing)!;
        m.score += rrf;
        if (!m.providers.includes(hit.provider)) m.providers.push(hit.provider);
        m.abstract = longer(m.abstract, hit.abstract);
        m.snippet = longer(m.snippet, hit.snippet) ?? "";
        m.doi ??= doi; m.pdf_url ??= hit.pdf_url; m.published_at ??= hit.published_at; m.venue ??= hit.venue;
        if (!m.authors?.length && hit.authors?.length) m.authors = hit.authors;
        if (m.type === "web" && hit.type === "academic") m.type = "academic";
        for (const k of keys) alias.set(k, existing);
      } else {
        const id = keys[0]!;
        byKey.set(id, { ...hit, doi, score: rrf, providers: [hit.provider] });
        for (const k of keys) alias.set(k, id);
      }
    });
  }
  const q = tokens(question);
  const ranked = [...byKey.values()].map((h) => {
    const t = tokens(`${h.title} ${h.snippet}`);
    let overlap = 0;
    for (const w of q) if (t.has(w)) overlap++;
    return { ...h, score: h.score + (q.size ? 0.01 * (overlap / q.size) : 0) };
  }).sort((a, b) => b.score - a.score);
  return diversify(ranked, 2);
}

function diversify(hits: RankedHit[], perHost: number): RankedHit[] {
  const head: RankedHit[] = [], tail: RankedHit[] = [];
  const seen = new Map<string, number>();
  for (const h of hits) {
    // Papers share resolver hosts (doi.org, arxiv.org) without being one site's voice.
    let host = h.url;
    if (h.type === "web") try { host = new URL(h.url).hostname.replace(/^www\./, ""); } catch { /* keep url */ }
    const n = seen.get(host) ?? 0;
    seen.set(host, n + 1);
    (n < perHost ? head : tail).push(h);
  }
  return [...head, ...tail];
}
