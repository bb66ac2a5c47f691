/**
 * Where the sentences (the answer's claims) of one Markdown block lie, in its raw inline text:
 * the places the browser's sentence segmenter breaks, except inside an inline token (a code
 * span, bold text, a link, a marker), and with the markers that follow a full stop ("… rose.
 * [S1] Next …") kept with the sentence before them, where the writers put them
 * (docs/decisions/0108-evidence-in-the-web-app.md).
 */

/** The inline tokens of markdown.ts, found again here so no sentence ends inside one; last, a backslash escape. */
export const INLINE_TOKEN =
  /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(\*[^*\n]+\*|_[^_\n]+_)|(\[S\d+\])|(\[[^\]\n]+\]\([^)\s]+\))|\\[!-/:-@[-`{-~]/g;
const LEADING_MARKERS = /^(?:\s*\[S\d+\])+/;

let segmenter: Intl.Segmenter | null = null;

/** Half-open [start, end) ranges of the block's sentences, white space at their edges left out. */
export function sentenceRanges(text: string): [number, number][] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "sentence" });
  const inside: [number, number][] = [...text.matchAll(INLINE_TOKEN)].map((m) => [m.index, m.index + m[0].length]);
  const cuts: number[] = [];
  for (const seg of segmenter.segment(text)) {
    let at = seg.index;
    if (at === 0 || inside.some(([a, b]) => at > a && at < b)) continue;
    const lead = LEADING_MARKERS.exec(text.slice(at));
    if (lead) at += lead[0].length;
    if (at > (cuts.at(-1) ?? 0) && at < text.length) cuts.push(at);
  }
  const out: [number, number][] = [];
  for (const [i, from] of [0, ...cuts].entries()) {
    const to = cuts[i] ?? text.length;
    const piece = text.slice(from, to);
    const start = from + (piece.length - piece.trimStart().length);
    const end = to - (piece.length - piece.trimEnd().length);
    if (end > start) out.push([start, end]);
  }
  return out;
}
