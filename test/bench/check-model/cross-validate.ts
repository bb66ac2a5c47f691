import { FEATURE_NAMES } from "../../../src/research/write/verify/features.ts";
import type { ModelName, Row } from "./data.ts";
import { auroc, type Fitted, fit, foldOf, predict } from "./logistic.ts";

/** Folds of the claims (never of rows: a claim's pairs and swaps are tested together). */
export const K = 5;
export const LAMBDAS = [1e-4, 1e-3, 1e-2, 1e-1];
/** A feature stays only when it adds at least this much to the cross-validated score: less is the folds' noise. */
export const MARGIN = 0.0005;

export type Target = (r: Row) => number | null;

/** Rows with a label for this model, each set weighing the same in all (so 1,660 swaps don't drown 349 WiCE claims). */
export function examples(rows: Row[], target: Target) {
  const idx = rows.map((_, i) => i).filter((i) => target(rows[i]!) !== null);
  const per = new Map<string, number>();
  for (const i of idx) per.set(rows[i]!.set, (per.get(rows[i]!.set) ?? 0) + 1);
  const w = idx.map((i) => idx.length / (per.size * per.get(rows[i]!.set)!));
  return { idx, y: idx.map((i) => target(rows[i]!)!), w };
}

export function fitOn(rows: Row[], target: Target, cols: number[], lambda: number): Fitted {
  const { idx, y, w } = examples(rows, target);
  return fit(
    idx.map((i) => rows[i]!.x),
    y,
    w,
    cols,
    lambda,
  );
}

/** Out-of-fold predictions: each row predicted by the model fitted on the other folds. */
export function outOfFold(rows: Row[], target: Target, cols: number[], lambda: number): Float64Array {
  const { idx, y, w } = examples(rows, target);
  const out = new Float64Array(rows.length);
  for (let f = 0; f < K; f++) {
    const train = idx.map((_, k) => k).filter((k) => foldOf(rows[idx[k]!]!.group, K) !== f);
    const m = fit(
      train.map((k) => rows[idx[k]!]!.x),
      train.map((k) => y[k]!),
      train.map((k) => w[k]!),
      cols,
      lambda,
    );
    // Every row of the fold's claims, labelled or not: the wire's support combines models, each over every row.
    rows.forEach((r, i) => {
      if (foldOf(r.group, K) === f) out[i] = predict(m, r.x, cols);
    });
  }
  return out;
}

/** The scores of one set's rows with these labels (a NaN, a score not computed, left out). */
const pick = (rows: Row[], p: ArrayLike<number>, set: string, labels: string[]) =>
  rows.flatMap((r, i) => (r.set === set && labels.includes(r.label) && !Number.isNaN(p[i]!) ? [p[i]!] : []));

/** AUROC of `p` for the labels `pos` against `neg` within one set. */
export const aurocOf = (rows: Row[], p: ArrayLike<number>, set: string, pos: string[], neg: string[]) =>
  auroc(pick(rows, p, set, pos), pick(rows, p, set, neg));

/** The swap claims whose right abstract scores highest of the five (a tie at the top counts 1/size). */
export function top1(rows: Row[], p: ArrayLike<number>): number {
  const by = new Map<string, [number, boolean][]>();
  rows.forEach((r, i) => {
    if (r.set !== "swap") return;
    const list = by.get(r.claim!) ?? [];
    list.push([p[i]!, r.label === "gold"]);
    by.set(r.claim!, list);
  });
  let sum = 0;
  for (const list of by.values()) {
    const max = Math.max(...list.map(([s]) => s));
    const top = list.filter(([s]) => s === max);
    if (top.some(([, g]) => g)) sum += 1 / top.length;
  }
  return sum / by.size;
}

/**
 * What each model is chosen by, on out-of-fold predictions: P(supported), WiCE's AUROC and the
 * mean of SciFact's four tasks (S vs rest, S vs C, the swaps' AUROC and right-highest share:
 * re-citing stands on those), half each, so one data set does not outvote the other.
 */
export const SCORES: Record<ModelName, (rows: Row[], p: ArrayLike<number>) => number> = {
  supported: (rows, p) =>
    (aurocOf(rows, p, "wice", ["supported"], ["partially_supported", "not_supported"]) +
      (aurocOf(rows, p, "pairs", ["support"], ["contradict", "nei"]) +
        aurocOf(rows, p, "pairs", ["support"], ["contradict"]) +
        aurocOf(rows, p, "swap", ["gold"], ["wrong"]) +
        top1(rows, p)) /
        4) /
    2,
  contradicted: (rows, p) => aurocOf(rows, p, "pairs", ["contradict"], ["support", "nei"]),
  figure: (rows, p) =>
    auroc(
      rows.flatMap((r, i) => (r.set === "numbers" ? [p[i]!] : [])),
      rows.flatMap((r, i) =>
        (r.set === "pairs" && r.label === "support") || (r.set === "wice" && r.label === "supported") ? [p[i]!] : [],
      ),
    ),
};

export interface Selection {
  lambda: number;
  cols: number[];
  /** Per feature tried: the score with it and without it (the rest as kept at that point). */
  ablation: { feature: string; with: number; without: number; kept: boolean }[];
  score: number;
}

/**
 * Chooses the penalty (all features in), then each feature but the lexical support in turn,
 * in FEATURE_NAMES' order: dropped unless the cross-validated score is higher with it by MARGIN.
 */
export function select(rows: Row[], target: Target, score: (rows: Row[], p: ArrayLike<number>) => number): Selection {
  let cols = FEATURE_NAMES.map((_, i) => i);
  let lambda = LAMBDAS[0]!;
  let best = Number.NEGATIVE_INFINITY;
  for (const l of LAMBDAS) {
    const s = score(rows, outOfFold(rows, target, cols, l));
    if (s > best) [best, lambda] = [s, l];
  }
  const ablation: Selection["ablation"] = [];
  for (let f = 1; f < FEATURE_NAMES.length; f++) {
    const without = cols.filter((c) => c !== f);
    const s = score(rows, outOfFold(rows, target, without, lambda));
    const kept = best > s + MARGIN;
    ablation.push({ feature: FEATURE_NAMES[f]!, with: best, without: s, kept });
    if (!kept) [cols, best] = [without, s];
  }
  return { lambda, cols, ablation, score: best };
}
