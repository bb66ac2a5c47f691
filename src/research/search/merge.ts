import { doiFromUrl, normalizeDoi } from "./clean.ts";
import type { SearchHit } from "./types.ts";

/** A merged hit: its fused score and every provider that returned it. */
export type RankedHit = SearchHit & { score: number; providers: string[] };

/** Reciprocal rank fusion constant (Cormack et al.): flattens the head of each list. */
const RRF_K = 60;
/** Full query-term overlap is worth about a dozen places in one list: a tie-breaker, not a ranker. */
const OVERLAP_BONUS = 0.003;
const PER_HOST = 2;

const TRACKING = /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|ref_src|igshid|_hs\w+|yclid|spm)$/i;

/** URL identity for dedupe: scheme-less, host lower-cased without www., no fragment, no tracking params, no trailing slash. */
export function normalizeUrl(u: string): string {
  try {
    const url = new URL(u);
    for (const k of [...url.searchParams.keys()]) if (TRACKING.test(k)) url.searchParams.delete(k);
    url.searchParams.sort();
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    const path = url.pathname.replace(/\/+$/, "");
    return `${host}${url.port ? `:${url.port}` : ""}${path}${url.search}`;
  } catch {
    return u;
  }
}

const tokens = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
const longer = (a?: string, b?: string) => ((b?.length ?? 0) > (a?.length ?? 0) ? b : a);

/** Folds `b` into `a`, keeping the richer value of each field. */
function absorb(a: RankedHit, b: SearchHit | RankedHit): void {
  a.score += "score" in b ? b.score : 0;
  for (const p of "providers" in b ? b.providers : [b.provider]) if (!a.providers.includes(p)) a.providers.push(p);
  if (a.title === a.url && b.title !== b.url) a.title = b.title;
  a.abstract = longer(a.abstract, b.abstract);
  a.snippet = longer(a.snippet, b.snippet) ?? "";
  a.doi ??= normalizeDoi(b.doi);
  a.pdf_url ??= b.pdf_url;
  a.published_at ??= b.published_at;
  a.venue ??= b.venue;
  if ((b.authors?.length ?? 0) > (a.authors?.length ?? 0)) a.authors = b.authors;
  if (a.type === "web" && b.type === "academic") a.type = "academic";
  // A page the collections also hold is read from there: no fetch, and the citation names the collection.
  if (b.local && !a.local) Object.assign(a, { local: b.local, type: "local", provider: "local" });
}

/**
 * Merges result lists (one per provider × query): dedupe by DOI and by normalised URL
 * (a hit matching two earlier ones by different keys joins them), score by reciprocal
 * rank fusion plus a small bonus for overlap with the question, then cap each web host
 * at two places ahead of the rest so one site can't crowd out the others (pushed down,
 * not dropped).
 */
export function mergeAndRank(lists: SearchHit[][], queryText: string): RankedHit[] {
  const entries: RankedHit[] = [];
  const owner = new Map<string, RankedHit>();
  for (const list of lists) {
    const seenInList = new Set<RankedHit>();
    list.forEach((hit, rank) => {
      const doi = normalizeDoi(hit.doi) ?? doiFromUrl(hit.url);
      const keys = [doi ? `doi:${doi}` : null, `url:${normalizeUrl(hit.url)}`].filter((k): k is string => k !== null);
      const matches = [...new Set(keys.map((k) => owner.get(k)).filter((e): e is RankedHit => e !== undefined))];
      let target = matches[0];
      if (!target) {
        target = { ...hit, doi, score: 0, providers: [hit.provider] };
        entries.push(target);
      } else {
        absorb(target, hit);
        for (const other of matches.slice(1)) {
          absorb(target, other);
          entries.splice(entries.indexOf(other), 1);
          for (const [k, e] of owner) if (e === other) owner.set(k, target);
          if (seenInList.delete(other)) seenInList.add(target);
        }
      }
      for (const k of keys) owner.set(k, target);
      // A list that repeats a result counts it once, at its best rank.
      if (!seenInList.has(target)) target.score += 1 / (RRF_K + rank + 1);
      seenInList.add(target);
    });
  }
  const q = tokens(queryText);
  for (const h of entries) {
    if (!q.size) break;
    const t = tokens(`${h.title} ${h.snippet}`);
    let overlap = 0;
    for (const w of q) if (t.has(w)) overlap++;
    h.score += OVERLAP_BONUS * (overlap / q.size);
  }
  return diversify(
    entries.sort((a, b) => b.score - a.score),
    PER_HOST,
  );
}

/** Stable reorder: each web host's first `perHost` hits keep their place, later ones go after all others. */
function diversify(hits: RankedHit[], perHost: number): RankedHit[] {
  const head: RankedHit[] = [],
    tail: RankedHit[] = [];
  const seen = new Map<string, number>();
  for (const h of hits) {
    // Papers share resolver hosts (doi.org, arxiv.org) without being one site's voice.
    let host = h.url;
    if (h.type === "web")
      try {
        host = new URL(h.url).hostname.toLowerCase().replace(/^www\./, "");
      } catch {
        /* keep url */
      }
    const n = seen.get(host) ?? 0;
    seen.set(host, n + 1);
    (n < perHost ? head : tail).push(h);
  }
  return [...head, ...tail];
}
