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
