import { analyserFor } from "./analyse.ts";
import type { ClaimCheck, PreparedEvidence } from "./check-claim.ts";

/**
 * What sets one source apart from the others a run read, for one claim: the swapped-citation
 * features (docs/decisions/0163-ranking-a-runs-sources-for-a-claim.md). A wrong source on the
 * claim's topic shares its common words; the right one holds the words only it holds, in one
 * sentence. Alone (a claim checked against one source) each takes the value it would have with
 * no rival: the features then say nothing the single-source ones don't.
 */
export const RELATIVE_NAMES = [
  /** Share of the claim's weight, each term weighing by how few of the candidates hold it, in the quote set. */
  "specific",
  /** The same share in the whole source. */
  "specificSource",
  /** Lexical support minus the best other candidate's (0 alone). */
  "supportGap",
  /** Share of the claim's terms in the quote set minus the best other candidate's (0 alone). */
  "overlapGap",
  /** 1 when no other candidate has a higher lexical support (1 alone). */
  "supportTop",
  /** The specific share in the best sentence alone. */
  "specificBest",
  /** The specific share of the quote set minus the best other candidate's (0 alone). */
  "specificGap",
  /** Share of the claim's pairs of neighbouring terms found as neighbours anywhere in the source. */
  "pairsSource",
  /** That share minus the best other candidate's (0 alone). */
  "pairsGap",
  /** How much of the source is about the claim's specific terms: each term's sentences n counting n / (n + 1). */
  "focus",
  /** That minus the best other candidate's (0 alone). */
  "focusGap",
] as const;

/** The sentences the features judge: the set that backs the claim together, at most two. */
export function quoteSet(check: ClaimCheck): number[] {
  return check.quotes.slice(0, Math.min(2, Math.max(1, check.together)));
}

export interface Candidate {
  ev: PreparedEvidence;
  check: ClaimCheck;
}

/** A term's weight among `n` candidates, `df` of which hold it: a term every one holds tells them apart least. */
const candidateWeight = (n: number, df: number) => Math.log((n + 1) / (df + 0.5));

const adjacent = (seq: readonly string[], a: string, b: string) => {
  for (let k = 0; k + 1 < seq.length; k++) if (seq[k] === a && seq[k + 1] === b) return true;
  return false;
};

/** Rows of RELATIVE_NAMES' values, one per candidate, in RELATIVE_NAMES' order. */
export function relativeFeatures(claim: string, items: readonly Candidate[]): Float64Array[] {
  const n = items.length;
  if (!n) return [];
  const seq = analyserFor(items[0]!.ev.language).terms(claim);
  const terms = [...new Set(seq)];
  const inQuote = items.map(({ ev, check }) => {
    const s = new Set<string>();
    for (const i of quoteSet(check)) for (const t of ev.terms[i] ?? []) s.add(t);
    return s;
  });
  const w = terms.map((t) => candidateWeight(n, items.filter(({ ev }) => ev.postings.has(t)).length));
  const total = w.reduce((a, b) => a + b, 0) || 1;
  const share = (has: (t: string) => boolean) => terms.reduce((s, t, k) => s + (has(t) ? w[k]! : 0), 0) / total;
  const plain = inQuote.map((q) => (terms.length ? terms.filter((t) => q.has(t)).length / terms.length : 0));
  const bestOther = (v: readonly number[], i: number) => {
    let b = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < v.length; k++) if (k !== i && v[k]! > b) b = v[k]!;
    return b;
  };
  const support = items.map(({ check }) => check.support);
  const specific = inQuote.map((q) => share((t) => q.has(t)));
  const claimPairs = new Set<string>();
  for (let k = 0; k + 1 < seq.length; k++) claimPairs.add(`${seq[k]} ${seq[k + 1]}`);
  const pairs = items.map(({ ev }) => {
    if (!claimPairs.size) return 0;
    let found = 0;
    // Only the sentences holding both words of a pair can hold it: their postings, not the whole source.
    for (const p of claimPairs) {
      const [a, b] = p.split(" ") as [string, string];
      const both = ev.postings.get(a)?.filter((i) => ev.terms[i]!.has(b)) ?? [];
      if (both.some((i) => adjacent(ev.sequences[i]!, a, b))) found++;
    }
    return found / claimPairs.size;
  });
  const focus = items.map(
    ({ ev }) =>
      terms.reduce((s, t, k) => {
        const f = ev.postings.get(t)?.length ?? 0;
        return s + (w[k]! * f) / (f + 1);
      }, 0) / total,
  );
  return items.map(({ ev }, i) => {
    const alone = n === 1;
    return Float64Array.of(
      share((t) => inQuote[i]!.has(t)),
      share((t) => ev.postings.has(t)),
      alone ? 0 : support[i]! - bestOther(support, i),
      alone ? 0 : plain[i]! - bestOther(plain, i),
      alone || support[i]! >= bestOther(support, i) ? 1 : 0,
      share((t) => ev.terms[items[i]!.check.quotes[0] ?? -1]?.has(t) ?? false),
      alone ? 0 : specific[i]! - bestOther(specific, i),
      pairs[i]!,
      alone ? 0 : pairs[i]! - bestOther(pairs, i),
      focus[i]!,
      alone ? 0 : focus[i]! - bestOther(focus, i),
    );
  });
}
