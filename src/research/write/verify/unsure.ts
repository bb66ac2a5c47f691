import type { Verdict } from "../../../contract/envelope.ts";
import type { ClaimCheck } from "./check-claim.ts";
import { backing, type Judgement, THRESHOLDS } from "./learned-check.ts";

/**
 * Which citations a second opinion is asked about (docs/decisions/0168-the-claims-a-second-opinion-is-asked-about.md):
 * those whose verdict sits nearest a threshold that keeps or removes a marker, measured in
 * log-odds so 0.09 against 0.15 counts as much as 0.5 against 0.62. A quote word for word and a
 * claim in another language than its source are never asked: the check is sure of the first and
 * never removes the second.
 */

/** At most this many citations of one run are asked about: a local checking model answers one in about a second. */
export const UNSURE_MAX = 4;
/** Farther than this from every threshold (log-odds; e^1.5 ≈ 4.5 times the odds) the check is sure enough. */
export const UNSURE_MARGIN = 1.5;

/** One citation the check is least sure of, keyed `<claim index>:<source id as in the input answer>`. */
export interface Unsure {
  key: string;
  /** The source's id as in the input answer: whose text the model is shown. */
  source: string;
  claim: string;
  quote: string;
  verdict: Verdict;
  /** P(the source backs the claim), the learned model's. */
  supported: number;
}

/** A citation as verifyAnswer judged it. */
export interface Judged {
  key: string;
  source: string;
  claim: string;
  quote: string;
  verdict: Verdict;
  check: ClaimCheck;
  judgement: Judgement;
}

const EPS = 1e-6;
const logit = (p: number) => {
  const q = Math.min(1 - EPS, Math.max(EPS, p));
  return Math.log(q / (1 - q));
};
const apart = (p: number, at: number) => Math.abs(logit(p) - logit(at));

/** How far a citation's verdict is from turning: the smallest distance to a threshold that moves its marker. */
export function margin(j: Judgement): number {
  return Math.min(
    apart(backing(j), THRESHOLDS.removeBelow),
    apart(j.supported, 0.5),
    apart(j.contradicted, THRESHOLDS.contradictedAt),
    apart(j.figure, THRESHOLDS.figureAt),
  );
}

/** The citations nearest a threshold, least sure first, at most UNSURE_MAX of them. */
export function leastSure(judged: readonly Judged[]): Unsure[] {
  return judged
    .filter((x) => !x.check.verbatim && x.check.comparable && x.check.quotes.length > 0)
    .map((x) => ({ x, m: margin(x.judgement) }))
    .filter((c) => c.m < UNSURE_MARGIN)
    .sort((a, b) => a.m - b.m || a.x.key.localeCompare(b.x.key))
    .slice(0, UNSURE_MAX)
    .map(({ x }) => ({
      key: x.key,
      source: x.source,
      claim: x.claim,
      quote: x.quote,
      verdict: x.verdict,
      supported: Math.round(x.judgement.supported * 1000) / 1000,
    }));
}
