/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The one of `known` fewest edits from `given` when it is at most `within` edits away, else undefined. */
export function closest(given: string, known: readonly string[], within = 2): string | undefined {
  let best: string | undefined;
  let bestDistance = within + 1;
  for (const k of known) {
    const d = editDistance(given, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}
