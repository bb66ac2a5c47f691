import type { Source } from "../types.ts";

// A marker group: [S1], [S2, S3], [S2;S3], [S2 and S3], [s1], [S1, 2], [S1-S3], 【S1】.
// Runs like [S1][S2] are groups side by side.
const GROUP = /[[【]\s*[Ss]\s*\d+(?:\s*(?:[,;&–-]|and)\s*(?:[Ss]\s*)?\d+)*\s*[\]】]/g;
// Where a marker naming nothing was removed; cleaned up once all groups are rewritten.
const GONE = "\u0000";

/** Source numbers named in one group, ranges ("S1-S3") spelled out when short. */
function numbersIn(group: string): number[] {
  const out: number[] = [];
  for (const m of group.matchAll(/(\d+)(?:\s*[–-]\s*(?:[Ss]\s*)?(\d+))?/g)) {
    const a = Number(m[1]),
      b = m[2] ? Number(m[2]) : a;
    if (b >= a && b - a < 10) for (let n = a; n <= b; n++) out.push(n);
    else out.push(a, b);
  }
  return out;
}

/** Removes what dropped markers leave behind, touching nothing else of the Markdown. */
// U+0000 marks where a dropped citation stood (no text can contain it).
function tidy(text: string): string {
  // biome-ignore-start lint/suspicious/noControlCharactersInRegex: U+0000 is our own placeholder
  return text
    .replace(/[ \t]*\(\s*\u0000+\s*\)/g, GONE)
    .replace(/[ \t]*\u0000+[ \t]*(?=[.,;:!?)\]]|$)/gm, "")
    .replace(/^\u0000+[ \t]*/gm, "")
    .replace(/[ \t]*\u0000+[ \t]*/g, " ");
  // biome-ignore-end lint/suspicious/noControlCharactersInRegex: end
}

/**
 * Makes the answer's citations trustworthy (README "Citations you can trust"): markers naming no provided
 * source are dropped, sources are renumbered S1.. in order of first citation, repeated
 * markers side by side are merged, and only cited sources are returned (at most `max`).
 * So every marker names a listed source and every listed source is cited. An answer
 * that cites nothing comes back with no sources; the caller decides what that means.
 */
export function finalizeCitations<S extends Source>(
  answer: string,
  provided: S[],
  max = 5,
): { answer: string; sources: S[] } {
  const byId = new Map(provided.map((s) => [s.id.toUpperCase(), s]));
  const order: string[] = [];
  const renumber = new Map<string, string>();
  const rewritten = answer.replaceAll(GONE, "").replace(GROUP, (group) => {
    const kept: string[] = [];
    for (const id of numbersIn(group).map((n) => `S${n}`)) {
      if (!byId.has(id)) continue;
      if (!renumber.has(id)) {
        if (order.length >= max) continue;
        order.push(id);
        renumber.set(id, `S${order.length}`);
      }
      const n = renumber.get(id)!;
      if (!kept.includes(n)) kept.push(n);
    }
    kept.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    return kept.length ? kept.map((n) => `[${n}]`).join("") : GONE;
  });
  const merged = rewritten.replace(/(\[S\d+\])(?:[ \t]*\1)+/g, "$1");
  const sources = order.map((id) => ({ ...byId.get(id)!, id: renumber.get(id)! }));
  return { answer: tidy(merged).trim(), sources };
}

/** The marker groups of a text, as written ("[S1]", "[S2, S3]", "【S1】"), and the source ids each names. */
export function markerGroups(text: string): { text: string; ids: string[] }[] {
  return [...text.matchAll(GROUP)].map((m) => ({ text: m[0], ids: numbersIn(m[0]).map((n) => `S${n}`) }));
}

/** Every [Sn] in a final answer, in order, for checks. */
export function markersIn(answer: string): string[] {
  return [...answer.matchAll(/\[S(\d+)\]/g)].map((m) => `S${m[1]}`);
}
