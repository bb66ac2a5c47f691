/**
 * Characters a title keeps, wherever it comes from (a page, a PDF's metadata, a JSONL record,
 * a Markdown heading). Threat: a title of megabytes (README "Importing documents") — ranking
 * and every answer carry the title, so its length must not be the uploader's to choose.
 */
export const MAX_TITLE_CHARS = 300;

/**
 * A title on one line and at most MAX_TITLE_CHARS characters, never splitting a surrogate
 * pair. Only the head of a long title is looked at, so a cut costs the same however long it is.
 */
export function capTitle(title: string): string {
  const t = title
    .trimStart()
    .slice(0, MAX_TITLE_CHARS * 4)
    .replace(/\s+/g, " ")
    .trim();
  if (t.length <= MAX_TITLE_CHARS) return t;
  const end = /[\uD800-\uDBFF]/.test(t[MAX_TITLE_CHARS - 1]!) ? MAX_TITLE_CHARS - 1 : MAX_TITLE_CHARS;
  return t.slice(0, end).trimEnd();
}
