import type { Source } from "../types.ts";

// [S1], [S2, S3], [S2;S3], [s1], 【S1】 and [S1, 2]; runs like [S1][S2] are groups side by side.
const GROUP = /[\[【]\s*[Ss]\s*\d+(?:\s*[,;]\s*(?:[Ss]\s*)?\d+)*\s*[\]】]/g;

/**
 * Makes the answer's citations trustworthy: markers naming no provided source are dropped,
 * sources are renumbered S1.. in order of first citation, and only cited sources are
 * returned — so every marker names a listed source and every listed source is cited.
 */
export function finalizeCitations(answer: string, provided: Source[], max = 5): { answer: string; sources: Source[] } {
  const byId = new Map(provided.map((s) => [s.id.toUpperCase(), s]));
  const order: string[] = [];
  const renumber = new Map<string, string>();
  const rewritten = answer.replace(GROUP, (group) => {
    const ids = (group.match(/\d+/g) ?? []).map((n) => `S${Number(n)}`);
    const kept: string[] = [];
    for (const id of ids) {
      if (!byId.has(id)) continue;
      if (!renumber.has(id)) {
        if (order.length >= max) continue;
        order.push(id);
        renumber.set(id, `S${order.length}`);
      }
      const n = renumber.get(id)!;
      if (!kept.includes(n)) kept.push(n);
    }
    return kept.map((n) => `[${n}]`).join("");
  });
  const cleaned = rewritten
    .replace(/[ \t]+([.,;:!?)])/g, "$1")
    .replace(/\(\s*\)/g, "")
    .replace(/[ \t]{2,}/g, " ")
    .replace(/[ \t]+$/gm, "")
    .trim();
  const sources = order.map((id) => ({ ...byId.get(id)!, id: renumber.get(id)! }));
  return { answer: cleaned, sources };
}

/** Every [Sn] in a final answer, for checks. */
export function markersIn(answer: string): string[] {
  return [...answer.matchAll(/\[S(\d+)\]/g)].map((m) => `S${m[1]}`);
}
