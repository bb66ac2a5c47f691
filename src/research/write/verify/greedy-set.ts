import { TUNING } from "./tuning.ts";

/**
 * The sentences that back a claim together: the best one, then each that adds most of what
 * the chosen ones left uncovered (a neighbour gets a little extra: a claim is often backed by
 * two sentences side by side), up to TUNING.maxSet. `c[k][j]` is candidate k's credit for
 * the claim's term j, `ids[k]` its place in the source; `first` forces the first candidate
 * (a verbatim match), -1 for none. Returns candidate indices.
 */
export function greedySet(weights: number[], c: Float64Array[], first: number, ids: number[]) {
  const total = weights.reduce((a, b) => a + b, 0);
  const single = c.map((ci) => weights.reduce((s, w, j) => s + w * ci[j]!, 0) / total);
  const order = single.map((_, i) => i).sort((a, b) => single[b]! - single[a]! || a - b);
  const set = [first >= 0 ? first : order[0]!];
  const covered = Float64Array.from(c[set[0]!]!);
  while (set.length < TUNING.maxSet) {
    let best = -1,
      gain = 0;
    for (const i of order.slice(0, 40)) {
      if (set.includes(i)) continue;
      let g = 0;
      weights.forEach((w, j) => {
        g += w * Math.max(0, c[i]![j]! - covered[j]!);
      });
      g /= total;
      if (set.some((k) => Math.abs(ids[k]! - ids[i]!) === 1)) g += TUNING.adjacent;
      if (g > gain) {
        gain = g;
        best = i;
      }
    }
    if (best < 0 || gain < TUNING.minGain) break;
    set.push(best);
    c[best]!.forEach((v, j) => {
      if (v > covered[j]!) covered[j] = v;
    });
  }
  return { set, covered, order };
}
