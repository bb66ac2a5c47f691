import { REMOVE_BELOW } from "../../../src/research/write/verify/check-claim.ts";
import { aurocOf, K, top1 } from "./cross-validate.ts";
import type { ModelName, Row } from "./data.ts";
import { type Trained, wireSupport } from "./train.ts";

/**
 * The learned check's figures on the tuning data, each row predicted by the model fitted on the
 * other folds, beside the lexical check it starts from (its `support` as the score) and the
 * data READMEs' baselines.
 */

const f3 = (x: number) => (Number.isNaN(x) ? "—" : x.toFixed(3).replace(/^0/, ""));
const pct = (x: number) => (Number.isNaN(x) ? "—" : `${(x * 100).toFixed(1)} %`);

/** Some gold set wholly in the first k quotes / some gold sentence in the first k. */
function retrieval(rows: Row[], set: string, labels: string[], k: number, all: boolean): number {
  const rs = rows.filter((r) => r.set === set && labels.includes(r.label) && r.gold.length);
  const hit = rs.filter((r) => {
    const top = new Set(r.quotes.slice(0, k));
    return r.gold.some((g) => (all ? g.every((i) => top.has(i)) : g.some((i) => top.has(i))));
  });
  return hit.length / rs.length;
}

const below = (rows: Row[], p: ArrayLike<number>, set: string, label: string, t: number) => {
  const v = rows.flatMap((r, i) => (r.set === set && r.label === label && !Number.isNaN(p[i]!) ? [p[i]!] : []));
  return v.filter((s) => s < t).length / v.length;
};
const atLeast = (rows: Row[], p: ArrayLike<number>, set: string, label: string, t: number) =>
  1 - below(rows, p, set, label, t);

export function figures(t: Trained): string {
  const { rows, oof, thresholds } = t;
  const lex = rows.map((r) => r.support);
  const sup = oof.supported;
  const con = oof.contradicted;
  const line = (name: string, p: ArrayLike<number>, cut: number) =>
    `| ${name} | ${f3(aurocOf(rows, p, "wice", ["supported"], ["partially_supported", "not_supported"]))} | ${f3(aurocOf(rows, p, "wice", ["supported"], ["not_supported"]))} | ${f3(aurocOf(rows, p, "pairs", ["support"], ["contradict"]))} | ${f3(aurocOf(rows, p, "pairs", ["support"], ["nei"]))} | ${f3(aurocOf(rows, p, "pairs", ["support"], ["contradict", "nei"]))} | ${pct(top1(rows, p))} | ${f3(aurocOf(rows, p, "swap", ["gold"], ["wrong"]))} | ${pct(below(rows, p, "swap", "wrong", cut))} / ${pct(below(rows, p, "swap", "gold", cut))} (${cut}) |`;
  const conLine = (name: string, p: ArrayLike<number>, cut: number) =>
    `| ${name} | ${f3(aurocOf(rows, p, "pairs", ["contradict"], ["support"]))} | ${f3(aurocOf(rows, p, "pairs", ["contradict"], ["nei"]))} | ${f3(aurocOf(rows, p, "pairs", ["contradict"], ["support", "nei"]))} | ${pct(atLeast(rows, p, "pairs", "contradict", cut))} | ${pct(atLeast(rows, p, "numbers", "changed", cut))} | ${pct(atLeast(rows, p, "pairs", "support", cut))} / ${pct(atLeast(rows, p, "wice", "supported", cut))} (${cut}) |`;
  const ablation = (name: ModelName) =>
    t.selections[name].ablation
      .map((a) => `${a.feature} ${f3(a.with)}→${f3(a.without)}${a.kept ? " kept" : ""}`)
      .join("; ");
  return [
    `Cross-validated on the tuning data only (${K} folds by claim; each row scored by the models fitted on the other four). Support: AUROC of the score; swaps: right abstract highest of 5, AUROC right vs wrong, wrong / right abstracts below the removal threshold.`,
    "",
    "| score | WiCE dev S vs rest | WiCE S vs NS | SciFact train S vs C | S vs NEI | S vs rest | swaps: right highest | swap AUROC | swaps: wrong / right removed (t) |",
    "|---|---|---|---|---|---|---|---|---|",
    line("lexical check (support, REMOVE_BELOW)", lex, REMOVE_BELOW),
    line("learned P(supported) alone", sup, thresholds.removeBelow),
    line(
      "the wire's support: P(supported) × (1 − P(contradicted)), removal threshold",
      wireSupport(oof),
      thresholds.removeBelow,
    ),
    "| data READMEs' lexical baselines (tuned on these data) | .842 | .940 | .508 | .874 | .745 | 67.4 % | .791 | — |",
    "",
    `Retrieval (the lexical check's quotes, unchanged): WiCE dev set@2 ${f3(retrieval(rows, "wice", ["supported", "partially_supported"], 2, true))}, any@1 ${f3(retrieval(rows, "wice", ["supported", "partially_supported"], 1, false))}; SciFact train set@2 ${f3(retrieval(rows, "pairs", ["support", "contradict"], 2, true))}, any@1 ${f3(retrieval(rows, "pairs", ["support", "contradict"], 1, false))} (baselines: WiCE .431 / .853, SciFact .677 / .514).`,
    "",
    "| contradiction score | SciFact C vs S | C vs NEI | C vs rest | contradicting abstracts flagged | claims with a changed number flagged | supported pairs / WiCE supported claims flagged (t) |",
    "|---|---|---|---|---|---|---|",
    conLine("learned P(contradicted)", con, thresholds.contradictedAt),
    conLine("learned P(a figure stated otherwise)", oof.figure, thresholds.figureAt),
    conLine(
      "the verdict: either model at its threshold (1 flagged, 0 not)",
      rows.map((_, i) => (con[i]! >= thresholds.contradictedAt || oof.figure[i]! >= thresholds.figureAt ? 1 : 0)),
      1,
    ),
    conLine(
      "1 − lexical support (a score with no contradiction cue)",
      lex.map((s) => 1 - s),
      0.5,
    ),
    "",
    `Ablation, each feature in turn with the rest as kept so far (cross-validated score with → without; dropped unless it adds 0.0005): P(supported), λ ${t.selections.supported.lambda}: ${ablation("supported")}. P(contradicted), λ ${t.selections.contradicted.lambda}: ${ablation("contradicted")}. P(a figure stated otherwise), λ ${t.selections.figure.lambda}: ${ablation("figure")}.`,
  ].join("\n");
}
