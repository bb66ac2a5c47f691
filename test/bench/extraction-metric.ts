/** The article-extraction-benchmark's metric: word 4-gram multisets, P/R averaged over pages. */
const tokenize = (s: string) => s.match(/[\p{L}\p{N}_]+/gu) ?? [];

function ngrams(text: string, n = 4): Map<string, number> {
  const t = tokenize(text);
  const m = new Map<string, number>();
  for (let i = 0; i + n <= t.length; i++) {
    const k = t.slice(i, i + n).join(" ");
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

/** Per page: tp, fp, fn of the 4-gram multisets, scaled to sum to 1 (as evaluate.py does). */
export function pageScore(gold: string, out: string): { precision: number; recall: number } {
  const g = ngrams(gold),
    o = ngrams(out);
  let tp = 0,
    fp = 0,
    fn = 0;
  for (const [k, c] of o) {
    const gc = g.get(k) ?? 0;
    tp += Math.min(c, gc);
    fp += Math.max(0, c - gc);
  }
  for (const [k, c] of g) fn += Math.max(0, c - (o.get(k) ?? 0));
  const sum = tp + fp + fn;
  if (sum === 0) return { precision: 1, recall: 1 };
  tp /= sum;
  fp /= sum;
  fn /= sum;
  return { precision: tp + fp === 0 ? 0 : tp / (tp + fp), recall: tp + fn === 0 ? 0 : tp / (tp + fn) };
}

export function aggregate(scores: { precision: number; recall: number }[]) {
  const p = scores.reduce((a, s) => a + s.precision, 0) / scores.length;
  const r = scores.reduce((a, s) => a + s.recall, 0) / scores.length;
  return { precision: p, recall: r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}
