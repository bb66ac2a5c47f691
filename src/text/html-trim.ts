// Lines of an extracted text that are not the article's own, removed after extraction
// because only the finished text shows where they stand: at its head (the headline, which
// is the source's title) or its tail (labels, dates, rights lines).

/**
 * Furniture that survives inside the article's container, told by its shape alone so the
 * rule holds in any language: a rights line (©) is the publisher's, not the author's; and
 * the lines trailing an article — "read also", share labels, dates, "comments are closed" —
 * are short and end without a sentence's punctuation, where the article's own last line
 * is prose.
 */
export function trimFurniture(text: string): string {
  const lines = text.split("\n").filter((l) => !RIGHTS.test(l));
  let end = lines.length;
  while (end > 1 && isLabel(lines[end - 1]!)) end--;
  // One short closing line is often the author's sign-off; furniture comes in runs.
  if (lines.length - end < 2) end = lines.length;
  return lines.slice(0, end).join("\n");
}

const RIGHTS = /^\s*(©|\(c\)\s|copyright\b)/i;
const SENTENCE_END = /[.!?…。！？»"”)]$/;

function isLabel(line: string): boolean {
  const t = line.trim();
  return t.length < 40 && !SENTENCE_END.test(t);
}

/** The page's own <h1> text, if it has exactly one (more are section titles, not a headline). */
export function headline(doc: Document): string | undefined {
  const h1s = doc.querySelectorAll("h1");
  return h1s.length === 1 ? (h1s[0]!.textContent ?? undefined) : undefined;
}

const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * Drops the headline where it opens the text: it is the source's `title`, returned on its
 * own, and repeated in the body it would be quoted to the writer as if it were content.
 */
export function withoutHeadline(text: string, titles: (string | undefined)[]): string {
  const known = new Set(titles.filter((t): t is string => !!t && t.trim().length > 0).map(squash));
  if (!known.size) return text;
  const lines = text.split("\n");
  // Among the first three lines: what stands above the headline is a kicker or a date line.
  const head = lines.slice(0, 3).findIndex((l) => known.has(squash(l)));
  if (head >= 0) lines.splice(0, head + 1);
  return lines.join("\n").replace(/^\n+/, "");
}
