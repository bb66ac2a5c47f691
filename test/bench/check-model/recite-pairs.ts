import { readFileSync } from "node:fs";
import { checkClaim, prepareEvidence } from "../../../src/research/write/verify/check-claim.ts";
import { candidateFeatures, FEATURE_NAMES } from "../../../src/research/write/verify/features.ts";
import { verdictOf } from "../../../src/research/write/verify/learned-check.ts";
import type { Judged } from "../../../src/research/write/verify/recite.ts";
import { examples } from "./cross-validate.ts";
import { FILES, MODEL_NAMES, type ModelName, type Row, TARGETS } from "./data.ts";
import { fit, foldOf, predict } from "./logistic.ts";

/**
 * The runs the re-citing rule is chosen and measured on, from the tuning data alone
 * (docs/decisions/0160-the-re-citing-thresholds.md): each SciFact train swap claim with its 5
 * candidate abstracts as the run's sources, and each WiCE dev claim with its own evidence and the
 * evidence of the 4 other dev claims sharing most of its words. Every pair is judged by the
 * models fitted without its claim's fold, so the figures are out of fold.
 */
export interface ReciteRun {
  set: "swap" | "wice";
  /** The claim's fold (its group's, as the models are cross-validated). */
  fold: number;
  /** The run's sources judged for the claim; `right` the one that backs it (the gold abstract, the claim's own evidence). */
  judged: Judged[];
  right: number;
  /** WiCE's label of the claim against its own evidence; "gold" for the swaps. */
  label: string;
}

const K = 5;
const VERBATIM = FEATURE_NAMES.indexOf("verbatim");

interface Pair {
  group: string;
  x: Float64Array;
  support: number;
  quotes: number;
}

/** Each pair's verdict and P(supported) from the fold models that never saw its claim. */
function judgePairs(
  rows: Row[],
  cols: Record<ModelName, { cols: number[]; lambda: number }>,
  t: Thresholds,
  pairs: Pair[],
) {
  const p = Object.fromEntries(
    MODEL_NAMES.map((n) => {
      const { idx, y, w } = examples(rows, TARGETS[n]);
      const models = Array.from({ length: K }, (_, f) => {
        const train = idx.map((_, k) => k).filter((k) => foldOf(rows[idx[k]!]!.group, K) !== f);
        const m = fit(
          train.map((k) => rows[idx[k]!]!.x),
          train.map((k) => y[k]!),
          train.map((k) => w[k]!),
          cols[n].cols,
          cols[n].lambda,
        );
        return m;
      });
      return [n, pairs.map((q) => predict(models[foldOf(q.group, K)]!, q.x, cols[n].cols))];
    }),
  ) as Record<ModelName, number[]>;
  return pairs.map((q, i): Judged => {
    const verbatim = q.x[VERBATIM] === 1;
    const none = !q.quotes && !verbatim;
    const j = verbatim
      ? { supported: 1, contradicted: 0, figure: 0 }
      : none
        ? { supported: 0, contradicted: 0, figure: 0 }
        : { supported: p.supported[i]!, contradicted: p.contradicted[i]!, figure: p.figure[i]! };
    const check = { verbatim: verbatim ? (true as const) : undefined, comparable: true, support: q.support };
    return { verdict: verdictOf(check, j, t.removeBelow, t), supported: j.supported, verbatim, lexical: q.support };
  });
}

type Thresholds = { removeBelow: number; contradictedAt: number; figureAt: number };

const words = (s: string) => new Set(s.toLowerCase().match(/\p{L}{4,}/gu) ?? []);

/** Per WiCE claim, the 4 other claims sharing most of its words (ties by order): whose evidence joins its run. */
export function wiceNeighbours(claims: string[]): number[][] {
  const bags = claims.map(words);
  return claims.map((_, i) =>
    claims
      .map((_, j) => j)
      .filter((j) => j !== i)
      .map((j) => [j, [...bags[i]!].filter((w) => bags[j]!.has(w)).length] as const)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 4)
      .map(([j]) => j),
  );
}

export function gz<T>(path: string): T[] {
  return new TextDecoder()
    .decode(Bun.gunzipSync(new Uint8Array(readFileSync(path))))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** The swap runs and the WiCE runs, judged out of fold with the thresholds `t` of the run's verdicts. */
export function reciteRuns(
  rows: Row[],
  selections: Record<ModelName, { cols: number[]; lambda: number }>,
  t: Thresholds,
): ReciteRun[] {
  const pairs: Pair[] = [];
  const shape: Omit<ReciteRun, "judged">[] = [];
  const swaps = new Map<string, Row[]>();
  for (const r of rows) if (r.set === "swap") swaps.set(r.claim!, [...(swaps.get(r.claim!) ?? []), r]);
  for (const cands of swaps.values()) {
    shape.push({
      set: "swap",
      fold: foldOf(cands[0]!.group, K),
      right: cands.findIndex((r) => r.label === "gold"),
      label: "gold",
    });
    for (const r of cands) pairs.push({ group: r.group, x: r.x, support: r.support, quotes: r.quotes.length });
  }
  const wice = gz<{ id: string; claim: string; evidence: string[]; label: string }>(FILES.wice);
  const evs = wice.map((r) => prepareEvidence(r.evidence, "en"));
  const near = wiceNeighbours(wice.map((r) => r.claim));
  wice.forEach((r, i) => {
    const group = `wice:${r.id}`;
    shape.push({ set: "wice", fold: foldOf(group, K), right: 0, label: r.label });
    // The run's five sources judged beside each other, as judgeAll does in a run.
    const items = [i, ...near[i]!].map((j) => ({ ev: evs[j]!, check: checkClaim(r.claim, evs[j]!) }));
    const xs = candidateFeatures(r.claim, items);
    items.forEach(({ check: c }, k) => {
      pairs.push({ group, x: xs[k]!, support: c.support, quotes: c.quotes.length });
    });
  });
  const judged = judgePairs(rows, selections, t, pairs);
  return shape.map((s, k) => ({ ...s, judged: judged.slice(k * 5, k * 5 + 5) }));
}
