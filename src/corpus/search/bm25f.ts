import type { TermPostings } from "../../store/corpus-index.ts";
import type { CorpusRanking } from "./ranking.ts";

/** Document lengths in index tokens, and the averages of the documents searched. */
export interface FieldLengths {
  title(doc: number): number;
  body(doc: number): number;
  docs: number;
  avgTitle: number;
  avgBody: number;
}

/** Lucene's BM25 idf: never negative, so a word in most documents still counts a little. */
export const idf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * BM25F (Robertson, Zaragoza, Taylor 2004): a term's counts in title and body are
 * length-normalised per field, the title's weighted, and summed before one saturation —
 * so a word in the title counts more without being counted as a second, independent term.
 * `weights` is the query: index term → weight (1 for a word the user wrote).
 */
export function bm25f(
  weights: Map<string, number>,
  postings: Map<string, TermPostings>,
  len: FieldLengths,
  r: CorpusRanking,
): Map<number, number> {
  const scores = new Map<number, number>();
  const avgT = len.avgTitle || 1;
  const avgB = len.avgBody || 1;
  for (const [term, w] of weights) {
    const p = postings.get(term);
    if (!p?.docs.length) continue;
    const wIdf = w * idf(p.docs.length, len.docs);
    for (let i = 0; i < p.docs.length; i++) {
      const d = p.docs[i]!;
      const t = p.title[i]! ? (r.titleWeight * p.title[i]!) / (1 - r.b + (r.b * len.title(d)) / avgT) : 0;
      const b = p.body[i]! ? p.body[i]! / (1 - r.b + (r.b * len.body(d)) / avgB) : 0;
      const tf = t + b;
      scores.set(d, (scores.get(d) ?? 0) + (wIdf * tf) / (r.k1 + tf));
    }
  }
  return scores;
}

/** Documents by score, best first (ties by id, so a ranking is repeatable). */
export function topDocs(scores: Map<number, number>, limit: number): [number, number][] {
  return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
}
