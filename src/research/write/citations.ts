import type { Source } from "../types.ts";
import { MARKER_GROUP, numbersIn } from "./markers.ts";

// Where a marker naming nothing was removed; cleaned up once all groups are rewritten.
const GONE = "\u0000";

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
 * So every marker names a listed source and every listed source is cited (`was`: each
 * returned source's id before renumbering). An answer
 * that cites nothing comes back with no sources; the caller decides what that means.
 */
export function finalizeCitations<S extends Source>(
  answer: string,
  provided: S[],
  max = 5,
): { answer: string; sources: S[]; was: string[] } {
  const byId = new Map(provided.map((s) => [s.id.toUpperCase(), s]));
  const order: string[] = [];
  const renumber = new Map<string, string>();
  const rewritten = answer.replaceAll(GONE, "").replace(MARKER_GROUP, (group) => {
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
  return { answer: tidy(merged).trim(), sources, was: order };
}

/** Every [Sn] in a final answer, in order, for checks. */
export function markersIn(answer: string): string[] {
  return [...answer.matchAll(/\[S(\d+)\]/g)].map((m) => `S${m[1]}`);
}
