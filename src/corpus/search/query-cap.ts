/**
 * Terms of a question searched at most: the most informative ones (fewest documents of the
 * searched collections) are kept. Chosen on SciFact (test/bench/corpus.ts; README "Searching
 * collections"): no training claim has more terms, so its figures do not move, while a
 * 2,000-character question of common words no longer scores hundreds of long postings.
 */
export const MAX_QUERY_TERMS = 32;

/**
 * The `max` terms of `terms` found in the fewest documents (a term found in none matches
 * nothing and goes last), in their order in the question; all of them when they are no more.
 * `df` counts within the searched collections only, so which terms are kept says nothing of
 * another collection.
 */
export async function informativeTerms(
  terms: string[],
  df: (terms: string[]) => Promise<Map<string, number>>,
  max = MAX_QUERY_TERMS,
): Promise<string[]> {
  if (terms.length <= max) return terms;
  const n = await df(terms);
  const rarity = (t: string) => n.get(t) || Number.POSITIVE_INFINITY;
  const kept = new Set(
    terms
      .map((t, i) => [t, i] as const)
      .sort((a, b) => rarity(a[0]) - rarity(b[0]) || a[1] - b[1])
      .slice(0, max)
      .map(([t]) => t),
  );
  return terms.filter((t) => kept.has(t));
}
