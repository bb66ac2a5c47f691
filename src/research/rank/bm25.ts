import { terms } from "./tokenize.ts";

type Counts = Map<string, number>;

const countsOf = (text: string): Counts => {
  const tf: Counts = new Map();
  for (const w of terms(text)) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
};
const total = (tf: Counts) => [...tf.values()].reduce((a, n) => a + n, 0);

/** BM25's inverse document frequency of a term `df` of `n` documents hold (never negative). */
export const bm25Idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * Okapi BM25 over a fixed set of passages (k1 = 1.2, b = 0.75). A passage may share a
 * heading with others (`heading[i]` indexes `headings`): it is scored as if the heading
 * stood before its text, but each heading is read once however many passages share it —
 * a long title repeated before each of a thousand passages made ranking quadratic.
 */
export class Bm25 {
  private readonly docs: Counts[];
  private readonly heads: Counts[];
  private readonly headOf: number[];
  private readonly lengths: number[];
  private readonly avgdl: number;
  /** Terms read from the texts and headings: the work of building the index (tests bound it). */
  readonly termsRead: number;

  private readonly k1 = 1.2;
  private readonly b = 0.75;

  constructor(texts: string[], headings: { headings: string[]; heading: number[] } = { headings: [], heading: [] }) {
    this.docs = texts.map(countsOf);
    this.heads = headings.headings.map(countsOf);
    this.headOf = texts.map((_, i) => headings.heading[i] ?? -1);
    const headLen = this.heads.map(total);
    const ownLen = this.docs.map(total);
    this.termsRead = ownLen.reduce((a, n) => a + n, 0) + headLen.reduce((a, n) => a + n, 0);
    this.lengths = ownLen.map((n, i) => n + (headLen[this.headOf[i]!] ?? 0));
    this.avgdl = this.lengths.reduce((a, n) => a + n, 0) / Math.max(1, this.lengths.length) || 1;
  }

  /** Score of every passage for the query (terms counted once each). */
  scores(query: string): number[] {
    const q = [...new Set(terms(query))];
    const n = this.docs.length;
    const s = new Array<number>(n).fill(0);
    for (const w of q) {
      const f = this.docs.map((tf, i) => (tf.get(w) ?? 0) + (this.heads[this.headOf[i]!]?.get(w) ?? 0));
      const df = f.reduce((a, x) => a + (x > 0 ? 1 : 0), 0);
      if (!df) continue;
      const idf = bm25Idf(n, df);
      f.forEach((x, i) => {
        if (x)
          s[i]! +=
            (idf * (x * (this.k1 + 1))) / (x + this.k1 * (1 - this.b + this.b * (this.lengths[i]! / this.avgdl)));
      });
    }
    return s;
  }
}
