/**
 * Weighted logistic regression with an L2 penalty, fitted by Newton's method for a fixed number
 * of steps: no randomness, the rows in the order given, so a fit is the same to the last bit on
 * every run (docs/decisions/0156-the-check-trained-byte-for-byte.md). The models have a few
 * dozen weights and a few thousand rows: Newton's steps converge long before the last.
 */

export interface Fitted {
  bias: number;
  weights: number[];
}

const STEPS = 20;

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function predict(m: Fitted, x: ArrayLike<number>, cols: readonly number[]): number {
  let z = m.bias;
  cols.forEach((c, k) => {
    z += m.weights[k]! * x[c]!;
  });
  return sigmoid(z);
}

/** Solves A v = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(m[r]![i]!) > Math.abs(m[p]![i]!)) p = r;
    [m[i], m[p]] = [m[p]!, m[i]!];
    for (let r = i + 1; r < n; r++) {
      const f = m[r]![i]! / m[i]![i]!;
      for (let c = i; c <= n; c++) m[r]![c]! -= f * m[i]![c]!;
    }
  }
  const v = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = m[i]![n]!;
    for (let c = i + 1; c < n; c++) s -= m[i]![c]! * v[c]!;
    v[i] = s / m[i]![i]!;
  }
  return v;
}

/**
 * Fits P(y = 1 | x) on the columns `cols` of each row; `w` weighs each row, `lambda` is the
 * penalty on the weights (never on the bias), per unit of total row weight.
 */
export function fit(
  rows: readonly ArrayLike<number>[],
  y: readonly number[],
  w: readonly number[],
  cols: readonly number[],
  lambda: number,
): Fitted {
  const d = cols.length + 1;
  const n = rows.length;
  // The rows' chosen columns, with a 1 for the bias, in one flat array: the loops below stay tight.
  const x = new Float64Array(n * d);
  rows.forEach((r, i) => {
    x[i * d] = 1;
    cols.forEach((c, k) => {
      x[i * d + k + 1] = r[c]!;
    });
  });
  const beta = new Float64Array(d);
  const total = w.reduce((a, b) => a + b, 0);
  for (let step = 0; step < STEPS; step++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let z = 0;
      for (let j = 0; j < d; j++) z += beta[j]! * x[o + j]!;
      const p = sigmoid(z);
      const e = w[i]! * (p - y[i]!);
      const s = w[i]! * p * (1 - p);
      for (let j = 0; j < d; j++) {
        const a = x[o + j]!;
        if (a === 0) continue;
        g[j]! += e * a;
        const hj = h[j]!;
        for (let k = j; k < d; k++) hj[k]! += s * a * x[o + k]!;
      }
    }
    for (let j = 1; j < d; j++) {
      g[j]! += lambda * total * beta[j]!;
      h[j]![j]! += lambda * total;
    }
    h[0]![0]! += 1e-9 * total;
    for (let j = 0; j < d; j++) for (let k = 0; k < j; k++) h[j]![k] = h[k]![j]!;
    const delta = solve(h, g);
    for (let j = 0; j < d; j++) beta[j]! -= delta[j]!;
  }
  return { bias: beta[0]!, weights: [...beta.slice(1)] };
}

/** sklearn's roc_auc_score: the chance a positive outscores a negative, ties counting half. */
export function auroc(pos: readonly number[], neg: readonly number[]): number {
  if (!pos.length || !neg.length) return Number.NaN;
  const all = [...pos.map((s) => [s, 1] as const), ...neg.map((s) => [s, 0] as const)].sort((a, b) => a[0] - b[0]);
  let sum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]![0] === all[i]![0]) j++;
    const mid = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) if (all[t]![1] === 1) sum += mid;
    i = j;
  }
  return (sum - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}

/** The fold of a group (a claim): FNV-1a of its id, so a claim's rows always fall together. */
export function foldOf(group: string, k: number): number {
  let h = 0x811c9dc5;
  for (const c of group) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % k;
}
