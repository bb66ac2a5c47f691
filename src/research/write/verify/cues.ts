import { PAIRS, type Pair, side, turnedNear } from "./directions.ts";

/**
 * The words that can turn a quote against a claim it shares every term with: negation,
 * direction and antonym pairs, quantifiers, numbers and units. Each cue is one row of CUES,
 * a test of (claim, quote) giving 1 when the two disagree on it; which of them the learned
 * check uses is decided by measurement (docs/decisions/0157-contradiction-cues-measured.md).
 * English words only: in another language every cue reads 0.
 */

/** Negation: a claim and its quote disagree when one of them says it and the other doesn't. */
const NEGATION =
  /\b(?:not|no|never|none|neither|nor|without|cannot|unable to|fail(?:s|ed)? to|lack(?:s|ed)? (?:of )?|absence of|absent|\w+n't|nothing|nobody|rather than)\b/gi;

/** Association, stated or denied. */
const ASSOCIATED = /\b(?:associat|correlat|linked|link\b|relat(?:ed|ionship))/i;
const NOT_ASSOCIATED =
  /\b(?:not|no|nor|without|lack of|absence of)\s+(?:\w+\s+){0,2}(?:associat|correlat|linked|link\b|relat(?:ed|ionship))|\b(?:unrelated|uncorrelated|independent of|unassociated)\b/i;

/** An effect or a link denied by the claim, against a finding the quote reports. */
const DENIES_EFFECT =
  /\b(?:unrelated|independent of|irrelevant|no (?:known |significant )?(?:effect|impact|role|influence|association|relationship|link|interaction|benefit)|(?:does|do|did|is|are|was|were) not (?:\w+ ){0,1}(?:affect|influence|alter|change|improve|reduce|increase|cause|associat|related|linked|predict|contribute))/i;
const REPORTS_FINDING =
  /\b(?:significant(?:ly)?|associated with|odds ratio|hazard ratio|relative risk|increased|decreased|reduced|improved|predict(?:s|ed)|contribut(?:es|ed))\b/i;

/** A change or difference stated, against none found. */
const CHANGE = side([
  "increas",
  "decreas",
  "reduc",
  "rais",
  "rose",
  "rise",
  "elevat",
  "declin",
  "higher",
  "lower",
  "greater",
  "improv",
  "worsen",
  "more\\b",
  "less\\b",
  "fewer\\b",
  "fall",
  "fell",
  "impair",
  "enhanc",
]);
const NO_CHANGE =
  /\b(?:similar|comparable|unchanged|unaffected|stable|no (?:significant |statistically significant |detectable |measurable )?(?:difference|change|effect|benefit|improvement|increase|decrease|reduction)s?|(?:did|does|do) not (?:differ|change|affect|alter|improve|reduce|increase))\b/i;
const EFFECTIVE = [
  side(["effective", "efficac", "succeed", "success"]),
  side(["ineffective", "ineffic", "unsuccessful", "fail"]),
] as Pair;

const UNIVERSAL = /\b(?:all|every|always|entire(?:ly)?|completely|universal(?:ly)?|invariably|only|sole(?:ly)?)\b/i;
const HEDGED = /\b(?:some|may|might|few|several|partial(?:ly)?|subset|often|sometimes|certain|can|could|possibly)\b/i;

const UNITS = new Set(
  "percent % mg g kg µg ug mcg ml l mm cm m km s ms min h hours days weeks months years fold times mmol µmol nm µm kcal kj mw kw w v".split(
    " ",
  ),
);
// A number, with the word after it (its unit, when it has one).
const NUMBER = /(\d+(?:[.,]\d+)*)\s*(%|[a-zµ]+)?/gi;

const WORD = /[a-z]{4,}/g;
const PREFIX = /^(?:un|in|im|ir|il|non|dis)-?/;
/** A word of one text whose negated form ("effective" / "ineffective") stands in the other and not the word itself. */
function negatedWord(a: string, b: string): boolean {
  const aw = new Set(a.toLowerCase().match(WORD) ?? []);
  const bw = new Set(b.toLowerCase().match(WORD) ?? []);
  for (const w of bw) {
    const base = w.replace(PREFIX, "");
    if (base !== w && base.length >= 5 && aw.has(base) && !bw.has(base) && !aw.has(w)) return true;
  }
  return false;
}

const negations = (s: string) => (s.match(NEGATION) ?? []).length;
/** +1 up, -1 down, 0 both or neither. */
const direction = ([up, down]: Pair, s: string) => (up.test(s) ? 1 : 0) - (down.test(s) ? 1 : 0);
const numbers = (s: string) =>
  [...s.matchAll(NUMBER)].map((m) => [m[1]!.replace(/,(?=\d{3}\b)/g, ""), (m[2] ?? "").toLowerCase()] as const);

/** One cue: 1 when claim and quote disagree on it, else 0. */
export type Cue = (claim: string, quote: string) => number;

const opposed =
  (p: Pair): Cue =>
  (c, q) =>
    direction(p, c) * direction(p, q) < 0 ? 1 : 0;

/** The cues by name; their order is the features' (features.ts). */
export const CUES: Record<string, Cue> = {
  /** The claim denies what the quote states. */
  denied: (c, q) => (negations(c) > 0 && negations(q) === 0 ? 1 : 0),
  /** The quote denies what the claim states. */
  polarity: (c, q) => (negations(q) > 0 && negations(c) === 0 ? 1 : 0),
  increase: opposed(PAIRS.increase!),
  higher: opposed(PAIRS.higher!),
  more: opposed(PAIRS.more!),
  promotes: opposed(PAIRS.promotes!),
  regulates: opposed(PAIRS.regulates!),
  improves: opposed(PAIRS.improves!),
  /** A direction turned on the same thing (turnedNear). */
  turned: turnedNear,
  risk: opposed(PAIRS.risk!),
  associated: (c, q) => {
    const state = (s: string) => (NOT_ASSOCIATED.test(s) ? -1 : ASSOCIATED.test(s) ? 1 : 0);
    return state(c) * state(q) < 0 ? 1 : 0;
  },
  /** The claim denies an effect or a link where the quote reports one (and denies nothing itself). */
  unrelated: (c, q) => (DENIES_EFFECT.test(c) && REPORTS_FINDING.test(q) && negations(q) === 0 ? 1 : 0),
  /** The claim states a change or a difference where the quote finds none. */
  change: (c, q) => (CHANGE.test(c) && !NO_CHANGE.test(c) && NO_CHANGE.test(q) ? 1 : 0),
  effective: opposed(EFFECTIVE),
  /** A word against its negated form: necessary / unnecessary, sufficient / insufficient. */
  prefixed: (c, q) => (negatedWord(c, q) || negatedWord(q, c) ? 1 : 0),
  quantifier: (c, q) => {
    const u = (s: string) => UNIVERSAL.test(s) && !HEDGED.test(s);
    const h = (s: string) => HEDGED.test(s) && !UNIVERSAL.test(s);
    return (u(c) && h(q)) || (h(c) && u(q)) ? 1 : 0;
  },
  /** A number the claim states, of which the quote states another and not this one. */
  number: (c, q) => {
    const cn = numbers(c);
    if (!cn.length) return 0;
    const qn = new Set(numbers(q).map(([n]) => n));
    return qn.size && cn.some(([n]) => !qn.has(n)) ? 1 : 0;
  },
  /** The same number with another unit ("5 mg" against "5 g"). */
  unit: (c, q) => {
    const qu = new Map<string, string[]>();
    for (const [n, u] of numbers(q)) if (UNITS.has(u)) qu.set(n, [...(qu.get(n) ?? []), u]);
    return numbers(c).some(([n, u]) => UNITS.has(u) && qu.has(n) && !qu.get(n)!.includes(u)) ? 1 : 0;
  },
};

export const CUE_NAMES = Object.keys(CUES);
