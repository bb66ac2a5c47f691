import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FEATURE_NAMES } from "../../../src/research/write/verify/features.ts";
import { examples, fitOn, outOfFold, SCORES, type Selection, select } from "./cross-validate.ts";
import { haveData, loadRows, MODEL_NAMES, type ModelName, type Row, TARGETS } from "./data.ts";
import { reciteRuns } from "./recite-pairs.ts";
import { chooseRecite } from "./recite-thresholds.ts";

/**
 * Trains the claim check's two models on the tuning data and writes their weights
 * (docs/decisions/0156-the-check-trained-byte-for-byte.md):
 *   bun test/bench/check-model/train.ts           writes src/research/write/verify/weights.json
 *   bun test/bench/check-model/train.ts --check   exits 1 when the file differs from a new training
 * Deterministic: the files' order, fixed folds, a fixed number of Newton steps, weights rounded.
 */
export const WEIGHTS = join(import.meta.dir, "../../../src/research/write/verify/weights.json");

/** Of supported citations, at most this share may lose their marker (measured on the out-of-fold predictions). */
export const RIGHT_REMOVED_AT_MOST = 0.05;

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
const GRID = Array.from({ length: 99 }, (_, i) => (i + 1) / 100);

export interface Trained {
  rows: Row[];
  selections: Record<ModelName, Selection>;
  oof: Record<ModelName, Float64Array>;
  thresholds: { removeBelow: number; contradictedAt: number; figureAt: number; reciteAt: number; reciteMargin: number };
  json: string;
}

const honest = (r: Row) => TARGETS.supported(r) === 1 && r.set !== "swap";

/**
 * The removal threshold: the highest on the grid at which at most RIGHT_REMOVED_AT_MOST of the
 * supported rows of each set (WiCE supported, SciFact support, the swaps' right abstracts) fall
 * below it: a removed right marker is the costlier error, wherever it is.
 */
function removeBelow(rows: Row[], p: Float64Array): number {
  const sets = ["wice", "pairs", "swap"].map((set) =>
    rows.flatMap((r, i) => (r.set === set && TARGETS.supported(r) === 1 ? [p[i]!] : [])),
  );
  let t = GRID[0]!;
  for (const g of GRID)
    if (sets.every((sup) => sup.filter((v) => v < g).length / sup.length <= RIGHT_REMOVED_AT_MOST)) t = g;
  return t;
}

/**
 * A contradiction threshold: the best F1 of the model's positives among its labelled rows, of the
 * thresholds at which at most RIGHT_REMOVED_AT_MOST of the honest citations of each set (WiCE
 * supported, SciFact support) would read as contradicted.
 */
function contradictionAt(rows: Row[], p: Float64Array, name: ModelName): number {
  let best = -1;
  let at = 0.99;
  for (const g of GRID) {
    const flagged = (set: string) => {
      const sup = rows.flatMap((r, i) => (honest(r) && r.set === set ? [p[i]! >= g] : []));
      return sup.filter(Boolean).length / sup.length;
    };
    if (flagged("wice") > RIGHT_REMOVED_AT_MOST || flagged("pairs") > RIGHT_REMOVED_AT_MOST) continue;
    let tp = 0;
    let fp = 0;
    let fn = 0;
    rows.forEach((r, i) => {
      const y = TARGETS[name](r);
      if (y === null) return;
      const yes = p[i]! >= g;
      if (yes && y) tp++;
      else if (yes) fp++;
      else if (y) fn++;
    });
    const f1 = (2 * tp) / (2 * tp + fp + fn || 1);
    if (f1 > best) [best, at] = [f1, g];
  }
  return at;
}

/** The wire's support out of fold: learned-check.ts `backing` over the two models' predictions. */
export const wireSupport = (oof: Record<ModelName, Float64Array>) =>
  oof.supported.map((s, i) => s * (1 - oof.contradicted[i]!));

export function train(rows = loadRows()): Trained {
  const selections = Object.fromEntries(MODEL_NAMES.map((n) => [n, select(rows, TARGETS[n], SCORES[n])])) as Record<
    ModelName,
    Selection
  >;
  const oof = Object.fromEntries(
    MODEL_NAMES.map((n) => [n, outOfFold(rows, TARGETS[n], selections[n].cols, selections[n].lambda)]),
  ) as Record<ModelName, Float64Array>;
  const verdicts = {
    removeBelow: removeBelow(rows, wireSupport(oof)),
    contradictedAt: contradictionAt(rows, oof.contradicted, "contradicted"),
    figureAt: contradictionAt(rows, oof.figure, "figure"),
  };
  // Re-citing: where a marker moves among a run's sources (recite-thresholds.ts), chosen after the verdicts it builds on.
  const thresholds = { ...verdicts, ...chooseRecite(reciteRuns(rows, selections, verdicts)) };
  // End of re-citing.
  const model = (name: ModelName) => {
    const s = selections[name];
    const m = fitOn(rows, TARGETS[name], s.cols, s.lambda);
    return {
      lambda: s.lambda,
      rows: examples(rows, TARGETS[name]).idx.length,
      bias: r6(m.bias),
      weights: Object.fromEntries(s.cols.map((c, k) => [FEATURE_NAMES[c]!, r6(m.weights[k]!)])),
      dropped: s.ablation.filter((a) => !a.kept).map((a) => a.feature),
    };
  };
  const json = `${JSON.stringify(
    {
      about:
        "The claim check's models, written by `bun test/bench/check-model/train.ts` from WiCE dev and SciFact train (pairs and swaps) only; docs/decisions/0155-the-checks-features-and-model.md",
      features: FEATURE_NAMES,
      ...Object.fromEntries(MODEL_NAMES.map((n) => [n, model(n)])),
      thresholds,
    },
    null,
    2,
  )}\n`;
  return { rows, selections, oof, thresholds, json };
}

if (import.meta.main) {
  if (!haveData()) {
    console.error("the tuning data is absent (../shared/data/README.md): nothing trained");
    process.exit(2);
  }
  const t = train();
  if (process.argv.includes("--check")) {
    const same = readFileSync(WEIGHTS, "utf8") === t.json;
    console.log(same ? "weights.json is what the trainer writes" : "weights.json differs from a new training");
    process.exit(same ? 0 : 1);
  }
  writeFileSync(WEIGHTS, t.json);
  console.log(t.json);
  for (const [name, s] of Object.entries(t.selections))
    console.log(
      name,
      s.lambda,
      s.score.toFixed(4),
      s.ablation.map((a) => `${a.feature} ${a.with.toFixed(4)} ${a.without.toFixed(4)} ${a.kept ? "kept" : "dropped"}`),
    );
}
