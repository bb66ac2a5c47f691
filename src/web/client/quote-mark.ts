// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what is stripped
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * A passage as one line: control characters dropped, runs of white space made one space. An
 * answer's quote of a local document was cut the same way from the passage it read, so the
 * quote is found in the flattened text character for character.
 */
export function flat(text: string): string {
  return text.replace(CONTROL, "").replace(/\s+/g, " ").trim();
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Where a quote sits: the passage's index, and the range to mark in its flattened text. */
export interface QuoteSpot {
  index: number;
  start: number;
  end: number;
  /** The quote found verbatim (its range marked), or only the passage sharing most of its words. */
  exact: boolean;
}

/** Share of the quote's words a passage holds below which it is not taken for the quoted one. */
const MIN_OVERLAP = 0.6;

/**
 * The passage an answer quoted. First the passage that holds the quote verbatim (a quote cut
 * short ends in "…", dropped before looking), the quote's own range marked; else the passage
 * sharing most of the quote's words, marked whole; null when none shares enough.
 */
export function findQuote(passages: string[], quote: string): QuoteSpot | null {
  const q = flat(quote).replace(/\s*…$/, "");
  if (!q) return null;
  const texts = passages.map(flat);
  for (const [index, t] of texts.entries()) {
    const start = t.indexOf(q);
    if (start >= 0) return { index, start, end: start + q.length, exact: true };
  }
  const want = words(q);
  if (!want.size) return null;
  let best: QuoteSpot | null = null;
  let bestShare = 0;
  for (const [index, t] of texts.entries()) {
    const have = words(t);
    let shared = 0;
    for (const w of want) if (have.has(w)) shared++;
    if (shared / want.size > bestShare) {
      best = { index, start: 0, end: t.length, exact: false };
      bestShare = shared / want.size;
    }
  }
  return bestShare >= MIN_OVERLAP ? best : null;
}
