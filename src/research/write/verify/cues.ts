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

/** A direction: words of one side against words of the other (stem prefixes, whole words start). */
type Pair = [up: RegExp, down: RegExp];
const side = (stems: string[]) => new RegExp(`\\b(?:${stems.join("|")})`, "i");

const PAIRS: Record<string, Pair> = {
  increase: [
    side(["increas", "rise", "rises", "rising", "rose", "elevat", "gain", "boost", "enhanc", "grow", "grew"]),
    side(["decreas", "reduc", "declin", "fall", "fell", "drop", "diminish", "los[st]", "shrink", "lessen"]),
  ],
  higher: [
    side(["higher", "greater", "larger", "longer", "above", "exceed", "bigger"]),
    side(["lower", "smaller", "shorter", "below", "beneath"]),
  ],
  more: [side(["more\\b", "most\\b"]), side(["less\\b", "fewer\\b", "least\\b"])],
  promotes: [
    side(["promot", "activat", "induc", "stimulat", "facilitat", "accelerat", "enabl", "trigger", "encourag"]),
    side(["inhibit", "suppress", "block", "prevent", "impair", "attenuat", "delay", "abolish", "antagoni"]),
  ],
  regulates: [
    side(["up-?regulat", "overexpress", "over-expression", "amplif"]),
    side(["down-?regulat", "underexpress", "under-expression", "knock-?down", "silenc", "deplet"]),
  ],
  improves: [
    side(["improv", "benefi", "better", "restor", "ameliorat", "alleviat"]),
    side(["worsen", "deteriorat", "worse\\b", "aggravat", "exacerbat", "impair"]),
  ],
  risk: [
    side(["risk", "harm", "danger", "worse", "adverse", "toxic", "detriment", "deleterious", "susceptib"]),
    side(["protect", "benefi", "safe", "better", "favorabl", "favourabl", "resist"]),
  ],
};

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

const WORDS = /[\p{L}\p{N}][\p{L}\p{N}'-]*/gu;
/** Words within this many of a direction word are what it says goes up or down. */
const NEAR = 4;
const DIRECTIONS = ["increase", "higher", "more", "promotes", "regulates", "improves"];

/**
 * Each direction word of a text, with the side it is on (+1 / -1) and the words around it
 * (stop-word-short ones aside), so a claim's and a quote's can be matched on what they move.
 */
function moves(s: string): { side: number; pair: string; near: Set<string> }[] {
  const w = s.toLowerCase().match(WORDS) ?? [];
  const out: { side: number; pair: string; near: Set<string> }[] = [];
  w.forEach((word, i) => {
    for (const pair of DIRECTIONS) {
      const [up, down] = PAIRS[pair]!;
      const side = (up.test(word) ? 1 : 0) - (down.test(word) ? 1 : 0);
      if (!side) continue;
      const near = new Set(
        w
          .slice(Math.max(0, i - NEAR), i + NEAR + 1)
          .filter((x) => x !== word && x.length > 3)
          .map((x) => x.slice(0, 5)),
      );
      out.push({ side, pair, near });
    }
  });
  return out;
}

/**
 * The quote moves what the claim moves the other way: of the quote's direction words standing
 * near a word that stands near the claim's (same five first letters), every one on the other
 * side. Reads past a quote that says both "increase" and "reduction" of different things.
 */
function turnedNear(c: string, q: string): number {
  const cm = moves(c);
  if (!cm.length) return 0;
  const qm = moves(q);
  let against = 0;
  let along = 0;
  for (const a of cm)
    for (const b of qm) {
      if (a.pair !== b.pair || ![...a.near].some((x) => b.near.has(x))) continue;
      if (a.side === b.side) along++;
      else against++;
    }
  return against > 0 && along === 0 ? 1 : 0;
}

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
