/**
 * What one line of plain text is, read without its neighbours: a table row, a line of code, a
 * list item, or text (prose, or a heading: text-blocks.ts tells those by the lines around them).
 * Text reaches passages without its markup (PDFs, imported Markdown and text, web pages), so
 * these are the marks such lines keep (docs/decisions/0137-what-is-a-sentence.md).
 */

export type LineKind = "table" | "code" | "item" | "text";

// Cells: a pipe at either end, or a run of spaces between words that no full stop,
// colon or comma precedes (markdown-text.ts joins a row's cells with two spaces; "end.  Next"
// is a typist's sentence gap).
const TABLE = /^\s*\||\|\s*$|[^\s.!?:;,](?: {2,}|[ \t]*\t[ \t]*)(?=\S)/;

// Code: a brace or "=>" where prose has none, a call, an assignment by a keyword, SQL in capitals.
const CODE = [
  /[{}]\s*$/,
  /^\s*[}\]]/,
  /\);?\s*$/,
  /=>|==|!=|:=|&&|\|\||::|->|\+\+|\w\(\)|[\w\]]\.\w+\(/,
  /^\s*(?:const|let|var)\s+[\w$]+\s*=/,
  /^\s*(?:def|fn|func|function)\s+\w+\s*\(/,
  /^\s*(?:import\s.+\sfrom\s|from\s[\w.]+\simport\s|#include\b|\$ \w)/,
];
// SQL: a clause's keyword in capitals starting the line, then another keyword or an operator.
const SQL_START =
  /^\s*(?:SELECT|FROM|WHERE|INSERT|UPDATE|DELETE|JOIN|GROUP|ORDER|LIMIT|VALUES|CREATE|ALTER|DROP|RETURNING|SET|AND|OR)\b/;
const SQL_MORE = /[=<>;(']|\b(?:FROM|WHERE|BY|AS|ON|INTO|IN|IS|NOT|NULL|LIKE|DESC|ASC|TABLE|JOIN)\b/;
const SYMBOLS = /[{}()[\]<>=;$#\\*|&^~`@]/g;
// A character some mark of code above needs (the keyword patterns need "=", "(" or a space and
// "from"/"import"/"$"/"#").
const CODE_CHAR = /[{}()[\]<>=;$#\\*|&^~`@]|::|\+\+|^\s*(?:import|from)\s/;

// A bullet or a number and a space, as plain-text lists and PDFs write them.
const ITEM = /^\s*(?:[-*+•▪◦‣]|\d{1,3}[.)]|\(?[a-z]\))\s+\S/;

/** Whether a line reads as code: a mark of code, or symbols where prose has words. */
export function codeLine(line: string): boolean {
  // Prose's own marks only (letters, digits, spaces, . , ; : ' " ! ? % and dashes): no code, and no pattern to try.
  if (!CODE_CHAR.test(line) && !SQL_START.test(line)) return false;
  if (SQL_START.test(line) && SQL_MORE.test(line.replace(SQL_START, ""))) return true;
  if (CODE.some((re) => re.test(line))) {
    // A sentence about code still ends like one: "Call f() first." is prose.
    return !/\p{L}[\p{L})"'”’]*[.!?]["'”’)]*\s*$/u.test(line) || /[{}]\s*$/.test(line);
  }
  const chars = line.replace(/\s+/g, "").length;
  const symbols = line.match(SYMBOLS)?.length ?? 0;
  return symbols >= 3 && symbols / Math.max(chars, 1) > 0.15;
}

// Lines longer than this are text: no table row or line of code is, and the patterns above stay
// cheap on the rest (a page read whole is attacker-sized text, often one line).
const LONGEST = 2000;

export function lineKind(line: string): LineKind {
  if (line.length > LONGEST) return "text";
  if (TABLE.test(line)) return "table";
  if (codeLine(line)) return "code";
  if (ITEM.test(line)) return "item";
  return "text";
}

// A sentence's end: . ! ? (or 。！？), closing quotes or brackets after it.
const END = /(?:[.!?]|[。！？])["'”’)\]]*\s*$/u;
// Words a wrapped line stops on mid-clause: a line ending in one continues.
const OPEN_END =
  /(?:[,;(–—-]|\b(?:a|an|the|of|to|in|on|at|by|for|from|with|and|or|but|as|than|that|which|is|are|was|were|be|per|into|its|their|our|this|these)),?\s*$/i;

/** The end of a line that the end-anchored patterns read: a long line's search would start at every character. */
const tail = (line: string) => (line.length > 120 ? line.slice(-120) : line);

/** Whether a line ends a sentence. */
export const endsSentence = (line: string): boolean => END.test(tail(line));

/**
 * Whether a text line could be a heading: short, no sentence end, not stopping mid-clause,
 * and not starting in lower case (a wrapped line's second half does).
 */
export function headingLike(line: string): boolean {
  const t = line.trim();
  if (!t || t.length > 90 || endsSentence(t) || OPEN_END.test(t) || /^\p{Ll}/u.test(t)) return false;
  return t.split(/\s+/).length <= 12;
}

/** A stop that ends an abbreviation ("e.g.", "Dr."), read on a sentence's last 10 characters. */
export const ABBREV =
  /(?:^|[\s(])(?:e\.g|i\.e|et al|etc|Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|Inc|Ltd|Co|Fig|Figs|No|Nr|vs|approx|cf|ca|Vol|pp|Eq|z\.B|d\.h|bzw|usw)\.$/i;
/** A stop that ends an initial ("J."). */
export const INITIAL = /(?:^|\s)\p{Lu}\.$/u;
/** Whether a line ends on an abbreviation or an initial: its stop ends no sentence. */
export const abbreviated = (line: string): boolean => {
  const end = line.trimEnd().slice(-10);
  return ABBREV.test(end) || INITIAL.test(end);
};

/** Whether `next` carries on the sentence `line` left open (lower case, or a number or bracket after an open end). */
export function continues(line: string, next: string): boolean {
  const n = next.trimStart();
  if (/^\p{Ll}/u.test(n)) return !endsSentence(line) || abbreviated(line);
  return !endsSentence(line) && (OPEN_END.test(tail(line)) || /^[\d(["'“‘%]/u.test(n));
}
