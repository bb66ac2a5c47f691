import { analyserFor } from "./analyse.ts";
import { type ClaimCheck, type PreparedEvidence, termWeight } from "./check-claim.ts";
import { CUE_NAMES, CUES } from "./cues.ts";
import { type Candidate, quoteSet, RELATIVE_NAMES, relativeFeatures } from "./relative-features.ts";
import { TUNING } from "./tuning.ts";

/**
 * What the learned check reads of one (claim, source) pair: the lexical check's own result and
 * a few measures of the quote it chose, each in [0, 1]
 * (docs/decisions/0155-the-checks-features-and-model.md). Pure: the same inputs, the same row.
 */

/** The features by name, in the order of every row and of the weights in weights.json. */
export const FEATURE_NAMES = [
  /** The lexical check's support (coverage of the claim's weighted terms, names and numbers). */
  "support",
  /** Share of the claim's IDF weight (over the source's sentences) found in the quote. */
  "overlap",
  /** Share of the claim's pairs of neighbouring terms the quote holds as neighbours. */
  "bigram",
  /** The longest run of the claim's terms the quote holds in the same order, over the claim's terms. */
  "phrase",
  /** The claim word for word in the source. */
  "verbatim",
  /** Share of the claim's numbers the quote lacks. */
  "numberMiss",
  /** Share of the claim's names (capitalised after its first word) the whole source lacks. */
  "nameMiss",
  /** Where the best quote stands in the source: 0 first, 1 last. */
  "position",
  /** The claim's length in terms, log-scaled, 1 at 40 terms and beyond. */
  "length",
  /** Of the claim's terms the whole source lacks (near forms aside), how many: 1 - e^(-k/2). */
  "absent",
  /** The claim's least-covered clause (split at commas, semicolons, "and", "but", "while", "which"): its terms' share in the whole source. */
  "clauseMin",
  /** Share of the claim's terms found in the source but outside the quote set (a claim pieced from far apart). */
  "scattered",
  ...CUE_NAMES,
  /** Against the other sources of the run (relative-features.ts): the values alone unless judgeAll fills them. */
  ...RELATIVE_NAMES,
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

const bigrams = (seq: readonly string[]) => {
  const out = new Set<string>();
  for (let i = 0; i + 1 < seq.length; i++) out.add(`${seq[i]} ${seq[i + 1]}`);
  return out;
};

/** Longest run of `a` found contiguous in `b` (dynamic programming over the two short lists). */
function longestRun(a: readonly string[], b: readonly string[]): number {
  let best = 0;
  let prev = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const row = new Int32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++)
      if (a[i - 1] === b[j - 1]) {
        row[j] = prev[j - 1]! + 1;
        if (row[j]! > best) best = row[j]!;
      }
    prev = row;
  }
  return best;
}

const CLAUSE = /[,;:]|\b(?:and|but|while|which|whereas)\b/i;

/** The feature row of a claim against a source, given what checkClaim found there. */
export function claimFeatures(claim: string, ev: PreparedEvidence, check: ClaimCheck): Float64Array {
  return candidateFeatures(claim, [{ ev, check }])[0]!;
}

/** The row's features read of this source alone; the relative ones are left for the caller. */
function ownFeatures(claim: string, ev: PreparedEvidence, check: ClaimCheck): Float64Array {
  const row = new Float64Array(FEATURE_NAMES.length);
  const set = (name: FeatureName, v: number) => {
    row[FEATURE_NAMES.indexOf(name)] = v;
  };
  const tokens = analyserFor(ev.language).tokens(claim);
  const seq = tokens.map((t) => t.term);
  const picked = quoteSet(check);
  const quoteSeq = picked.flatMap((i) => ev.sequences[i] ?? []);
  const quoteTerms = new Set(quoteSeq);
  const n = ev.sentences.length;
  set("support", check.support);
  set("verbatim", check.verbatim ? 1 : 0);
  set("length", Math.min(1, Math.log1p(seq.length) / Math.log(41)));
  set("position", picked.length && n > 1 ? picked[0]! / (n - 1) : 0);
  const distinct = [...new Set(seq)];
  if (distinct.length) {
    let total = 0;
    let found = 0;
    for (const t of distinct) {
      const w = termWeight(n, ev.postings.get(t)?.length ?? 0);
      total += w;
      if (quoteTerms.has(t)) found += w;
    }
    set("overlap", found / total);
    set("phrase", longestRun(seq, quoteSeq) / seq.length);
    const cb = bigrams(seq);
    const qb = bigrams(quoteSeq);
    if (cb.size) set("bigram", [...cb].filter((b) => qb.has(b)).length / cb.size);
    const nums = distinct.filter((t) => t.startsWith("#"));
    if (nums.length) set("numberMiss", nums.filter((t) => !quoteTerms.has(t)).length / nums.length);
    const names = [...new Set(tokens.filter((t) => t.name).map((t) => t.term))];
    if (names.length) set("nameMiss", names.filter((t) => !ev.postings.has(t)).length / names.length);
  }
  if (distinct.length) {
    const near = (t: string) =>
      ev.postings.has(t) ||
      (t.length >= TUNING.prefix && (ev.prefixes.get(t.slice(0, TUNING.prefix))?.length ?? 0) > 0);
    const missing = distinct.filter((t) => !near(t)).length;
    set("absent", 1 - Math.exp(-missing / 2));
    set("scattered", distinct.filter((t) => ev.postings.has(t) && !quoteTerms.has(t)).length / distinct.length);
    const a = analyserFor(ev.language);
    let min = 1;
    for (const part of claim.split(CLAUSE)) {
      const ts = [...new Set(a.terms(part))];
      if (ts.length >= 2) min = Math.min(min, ts.filter(near).length / ts.length);
    }
    set("clauseMin", min);
  }
  if (ev.language === "en" && picked.length) {
    const quote = picked.map((i) => ev.sentences[i]).join(" ");
    for (const name of CUE_NAMES) set(name as FeatureName, CUES[name]!(claim, quote));
  }
  return row;
}

const RELATIVE_AT = FEATURE_NAMES.indexOf(RELATIVE_NAMES[0]);

/** The rows of a claim against each source a run read, the relative features among them filled in. */
export function candidateFeatures(claim: string, items: readonly Candidate[]): Float64Array[] {
  const relative = relativeFeatures(claim, items);
  return items.map(({ ev, check }, i) => {
    const row = ownFeatures(claim, ev, check);
    row.set(relative[i]!, RELATIVE_AT);
    return row;
  });
}
