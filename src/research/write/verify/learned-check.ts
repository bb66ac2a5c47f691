import type { Verdict } from "../../../contract/envelope.ts";
import { SUPPORTED_AT } from "../../../contract/support.ts";
import type { ClaimCheck, PreparedEvidence } from "./check-claim.ts";
import { candidateFeatures, FEATURE_NAMES } from "./features.ts";
import { TUNING } from "./tuning.ts";
import WEIGHTS from "./weights.json" with { type: "json" };

/**
 * The learned half of the claim check: three logistic models over the features of features.ts,
 * their weights in weights.json (embedded in the binary), written by
 * `bun test/bench/check-model/train.ts` from the tuning data alone and reproduced byte for
 * byte by it (docs/decisions/0155-the-checks-features-and-model.md,
 * docs/decisions/0156-the-check-trained-byte-for-byte.md). The thresholds were chosen on the
 * same data by cross-validation (docs/decisions/0158-four-verdicts-and-their-thresholds.md,
 * docs/decisions/0164-the-wires-support-is-the-learned-probability.md).
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

const DENIED = FEATURE_NAMES.indexOf("denied");
/** The lexical support from which a claim that denies its quote is that sentence denied: every one of its words is there. */
const DENIED_SENTENCE_AT = 0.8;

/**
 * The judgements of one claim against each source a run read (the cited one among them). Their
 * `supported` reads each source beside the others (relative-features.ts): a source holding the
 * claim's words that the others lack gains, one sharing only the topic's common words loses
 * (docs/decisions/0163-ranking-a-runs-sources-for-a-claim.md). Alone it is judge's.
 */
export function judgeAll(claim: string, items: { ev: PreparedEvidence; check: ClaimCheck }[]): Judgement[] {
  const rows = candidateFeatures(claim, items);
  return items.map(({ check }, i) => {
    if (check.verbatim || !check.quotes.length)
      return { supported: check.verbatim ? 1 : 0, contradicted: 0, figure: 0 };
    const x = rows[i]!;
    // Outside English the models read no cue and were fitted on none of it: a figure the source never states sinks the claim there as in the lexical support.
    const absent = check.numberAbsent && items[i]!.ev.language !== "en" ? TUNING.numberAbsent : 1;
    // The quote's own sentence with the claim's denial added says otherwise for certain (docs/decisions/0183-a-denied-sentence-is-contradicted.md).
    const deniedSentence = x[DENIED]! > 0 && check.support >= DENIED_SENTENCE_AT;
    return {
      supported: absent * probability(MODELS.supported, x),
      contradicted: deniedSentence ? 1 : probability(MODELS.contradicted, x),
      figure: probability(MODELS.figure, x),
    };
  });
}

/** One citation judged against its source alone, as `verify -` and a claim citing one source are. */
export const judge = (claim: string, ev: PreparedEvidence, check: ClaimCheck): Judgement =>
  judgeAll(claim, [{ ev, check }])[0]!;

/**
 * The wire's `support` of a citation: P(the source backs the claim) times P(its quote does not
 * say otherwise in words), 1 for a claim quoted word for word
 * (docs/decisions/0164-the-wires-support-is-the-learned-probability.md).
 */
export const backing = (j: Judgement): number => j.supported * (1 - j.contradicted);

/**
 * A citation's verdict: contradicted when either contradiction model clears its threshold (a
 * quote word for word never does); otherwise unsupported below `removeBelow` (the trainer's,
 * THRESHOLDS.removeBelow, for runs) of the backing, supported at SUPPORTED_AT, partial between.
 * A claim in another language than its quotes is never removed: the scores mean nothing there.
 */
export function verdictOf(
  check: Pick<ClaimCheck, "verbatim" | "comparable" | "support">,
  j: Judgement,
  removeBelow: number,
  t: { contradictedAt: number; figureAt: number } = THRESHOLDS,
): Verdict {
  if (check.verbatim) return "supported";
  const b = backing(j);
  if (check.comparable) {
    if (j.contradicted >= t.contradictedAt || j.figure >= t.figureAt) return "contradicted";
    if (b < removeBelow) return "unsupported";
  }
  return b >= SUPPORTED_AT ? "supported" : "partial";
}
