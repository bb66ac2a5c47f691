import { terms } from "./tokenize.ts";

/** Okapi BM25 over a fixed set of passages (k1 = 1.2, b = 0.75). */
export class Bm25 {
  private readonly docs: Map<string, number>[];
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly avgdl: number;

  constructor(
    texts: string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.docs = texts.map((t) => {
      const tf = new Map<string, number>();
      for (const w of terms(t)) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      return tf;
    });
    this.lengths = this.docs.map((d) => [...d.values()].reduce((a, n) => a + n, 0));
    this.avgdl = this.lengths.reduce((a, n) => a + n, 0) / Math.max(1, this.lengths.length) || 1;
  }

  /** Score of every passage for the query (terms counted once each). */
  scores(query: string): number[] {
    const q = [...new Set(terms(query))];
    const n = this.docs.length;
    return this.docs.map((tf, i) => {
      let s = 0;
      for (const w of q) {
        const f = tf.get(w);
        if (!f) continue;
        const df = this.df.get(w)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        s += (idf * (f * (this.k1 + 1))) / (f + this.k1 * (1 - this.b + this.b * (this.lengths[i]! / this.avgdl)));
      }
      return s;
    });
  }
}
