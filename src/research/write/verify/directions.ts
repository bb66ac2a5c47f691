/**
 * Direction words of the contradiction cues (cues.ts): the pairs of sides (up / down, promotes /
 * inhibits …), and the reading of what a direction word moves, for a quote that says both
 * "fell" and "increase" of different things (docs/decisions/0165-contradiction-read-on-what-moves.md).
 */

/** A direction: words of one side against words of the other (stem prefixes, whole words start). */
export type Pair = [up: RegExp, down: RegExp];
export const side = (stems: string[]) => new RegExp(`\\b(?:${stems.join("|")})`, "i");

export const PAIRS: Record<string, Pair> = {
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
export function turnedNear(c: string, q: string): number {
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
