import { idf } from "./bm25f.ts";
import type { CorpusRanking } from "./ranking.ts";

/** A top document of the first pass: its score and its index terms with their counts. */
export interface FeedbackDoc {
  score: number;
  terms: Map<string, number>;
}

/** Terms in more than this share of the documents say nothing about a topic and are never added. */
const MAX_DF_SHARE = 0.1;

/**
 * Pseudo-relevance feedback in the manner of RM3 (Lavrenko & Croft; Abdul-Jaleel et al. 2004):
 * the top documents of a first pass are taken as relevant, weighted by their softmax-normalised
 * scores; each term's weight is its share of a document's length summed over them, times its idf
 * (so frequent words of the field do not fill the expansion). The query becomes a mix:
 * (1 − weight) × the original terms + weight × the best `terms` expansion terms, each side
 * normalised to sum to 1. Only the statistics of the collection are used, nothing about queries.
 */
export async function expandQuery(
  original: Map<string, number>,
  docs: FeedbackDoc[],
  frequencies: (terms: string[]) => Promise<Map<string, number>>,
  n: number,
  fb: NonNullable<CorpusRanking["feedback"]>,
): Promise<Map<string, number>> {
  if (!docs.length) return original;
  const top = Math.max(...docs.map((d) => d.score));
  const z = docs.reduce((s, d) => s + Math.exp(d.score - top), 0);
  const share = new Map<string, number>();
  for (const d of docs) {
    const pd = Math.exp(d.score - top) / z;
    let len = 0;
    for (const c of d.terms.values()) len += c;
    for (const [t, c] of d.terms) share.set(t, (share.get(t) ?? 0) + (pd * c) / len);
  }
  // Document frequencies cost a look-up: terms are taken in order of their share, and the
  // look-ups stop once even the rarest possible term could not enter the best `terms`. They
  // are asked for `terms` at a time, the next ones in that order, so a backend a network
  // away answers in a round trip or two and one at hand reads few more than it needs.
  const bound = idf(1, n);
  const best: [string, number][] = [];
  const sorted = [...share].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const df = new Map<string, number>();
  for (const [i, [t, p]] of sorted.entries()) {
    if (best.length >= fb.terms && p * bound <= best[best.length - 1]![1]) break;
    if (!df.has(t)) for (const [u, f] of await frequencies(sorted.slice(i, i + fb.terms).map(([u]) => u))) df.set(u, f);
    const f = df.get(t) ?? 0;
    if (!f || f > n * MAX_DF_SHARE) continue;
    const w = p * idf(f, n);
    if (best.length >= fb.terms && w <= best[best.length - 1]![1]) continue;
    best.splice(sortedIndex(best, w), 0, [t, w]);
    if (best.length > fb.terms) best.pop();
  }
  const expansion = best;
  const ez = expansion.reduce((s, [, w]) => s + w, 0);
  const qz = [...original.values()].reduce((s, w) => s + w, 0);
  if (!ez || !qz) return original;
  const out = new Map<string, number>();
  for (const [t, w] of original) out.set(t, ((1 - fb.weight) * w) / qz);
  for (const [t, w] of expansion) out.set(t, (out.get(t) ?? 0) + (fb.weight * w) / ez);
  return out;
}

/** Where weight w goes in a list sorted by weight, heaviest first (after equal weights). */
function sortedIndex(list: [string, number][], w: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]![1] >= w) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
