import type { Verdict } from "../../../contract/envelope.ts";
import { SUPPORTED_AT } from "../../../contract/support.ts";
import type { ClaimCheck, PreparedEvidence } from "./check-claim.ts";
import { claimFeatures, FEATURE_NAMES } from "./features.ts";
import WEIGHTS from "./weights.json" with { type: "json" };

/**
 * The learned half of the claim check: three logistic models over the features of features.ts,
 * their weights in weights.json (embedded in the binary), written by
 * `bun test/bench/check-model/train.ts` from the tuning data alone and reproduced byte for
 * byte by it (docs/decisions/0155-the-checks-features-and-model.md,
 * docs/decisions/0156-the-check-trained-byte-for-byte.md). The thresholds were chosen on the
 * same data by cross-validation (docs/decisions/0158-four-verdicts-and-their-thresholds.md).
 */

interface Model {
  bias: number;
  weights: Record<string, number>;
}

/** Each model's weights by feature position, zero for a feature it dropped. */
const dense = (m: Model) => ({
  bias: m.bias,
  w: Float64Array.from(FEATURE_NAMES, (n) => m.weights[n] ?? 0),
});
const MODELS = {
  supported: dense(WEIGHTS.supported),
  contradicted: dense(WEIGHTS.contradicted),
  figure: dense(WEIGHTS.figure),
};
export const THRESHOLDS = WEIGHTS.thresholds;

const probability = (m: { bias: number; w: Float64Array }, x: Float64Array) => {
  let z = m.bias;
  for (let i = 0; i < x.length; i++) z += m.w[i]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
};

/** What the models make of one citation. */
export interface Judgement {
  /** P(the source backs the claim). */
  supported: number;
  /** P(the quote says otherwise in words: a negation, a direction turned, an association denied). */
  contradicted: number;
  /** P(the quote states one of the claim's figures otherwise). */
  figure: number;
}

export function judge(claim: string, ev: PreparedEvidence, check: ClaimCheck): Judgement {
  if (check.verbatim || !check.quotes.length) return { supported: check.verbatim ? 1 : 0, contradicted: 0, figure: 0 };
  const x = claimFeatures(claim, ev, check);
  return {
    supported: probability(MODELS.supported, x),
    contradicted: probability(MODELS.contradicted, x),
    figure: probability(MODELS.figure, x),
  };
}

/**
 * What the models make of one claim against each of the run's sources at once (the cited and
 * the others), in the order given: the one place a claim's judgements over several sources are
 * made, so a model may read each source relative to the others.
 */
export function judgeAll(claim: string, items: { ev: PreparedEvidence; check: ClaimCheck }[]): Judgement[] {
  return items.map((i) => judge(claim, i.ev, i.check));
}

/**
 * A citation's verdict: contradicted when either contradiction model clears its threshold (a
 * quote word for word never does); otherwise unsupported below the removal threshold of the
 * lexical support, supported at SUPPORTED_AT, partial between. A claim in another language
 * than its quotes is never removed: the scores mean nothing there.
 */
export function verdictOf(
  check: Pick<ClaimCheck, "verbatim" | "comparable" | "support">,
  j: Judgement,
  removeBelow: number,
  t: { contradictedAt: number; figureAt: number } = THRESHOLDS,
): Verdict {
  if (check.verbatim) return "supported";
  if (check.comparable) {
    if (j.contradicted >= t.contradictedAt || j.figure >= t.figureAt) return "contradicted";
    if (check.support < removeBelow) return "unsupported";
  }
  return check.support >= SUPPORTED_AT ? "supported" : "partial";
}
