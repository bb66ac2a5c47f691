/**
 * The grammar of a citation marker, in one place: the citation parser (citations.ts) reads
 * answers with it, and the writers neutralise source text with it, so the two cannot drift.
 */

// A marker group: [S1], [S2, S3], [S2;S3], [S2 and S3], [s1], [S1, 2], [S1-S3], 【S1】.
// Runs like [S1][S2] are groups side by side.
const GROUP_SOURCE = String.raw`[[【]\s*[Ss]\s*\d+(?:\s*(?:[,;&–-]|and)\s*(?:[Ss]\s*)?\d+)*\s*[\]】]`;

/** Every marker group of a text (global: use with replace or matchAll only). */
export const MARKER_GROUP = new RegExp(GROUP_SOURCE, "g");

/** A group with the spaces before it, as cut from source text. */
const CUT = new RegExp(String.raw`[ \t]*${GROUP_SOURCE}`, "g");

/** Source numbers named in one group, ranges ("S1-S3") spelled out when short. */
export function numbersIn(group: string): number[] {
  const out: number[] = [];
  for (const m of group.matchAll(/(\d+)(?:\s*[–-]\s*(?:[Ss]\s*)?(\d+))?/g)) {
    const a = Number(m[1]),
      b = m[2] ? Number(m[2]) : a;
    if (b >= a && b - a < 10) for (let n = a; n <= b; n++) out.push(n);
    else out.push(a, b);
  }
  return out;
}

/** The marker groups of a text, as written ("[S1]", "[S2, S3]", "【S1】"), and the source ids each names. */
export function markerGroups(text: string): { text: string; ids: string[] }[] {
  return [...text.matchAll(MARKER_GROUP)].map((m) => ({ text: m[0], ids: numbersIn(m[0]).map((n) => `S${n}`) }));
}

/**
 * Source text with every marker-shaped group cut. Threat: a page that writes "[S2]" (or any
 * form the parser reads) would have its own sentence cite another source — quoted by the
 * extractive writer, or copied by a model. Cut until none is left: "[S[S2]2]" leaves "[S2]".
 */
export function neutraliseMarkers(text: string): string {
  let out = text;
  for (let before = ""; before !== out; ) {
    before = out;
    out = out.replace(CUT, "");
  }
  return out;
}
