/**
 * Two lines of one paragraph as one: a space between them, or a word split by a hyphen at the
 * line's end made whole again (docs/decisions/0136-joining-wrapped-lines.md).
 */

// Words that start real compounds often enough that "well-\nknown" is "well-known": the
// spelled-out tens ("ninety-\ntwo") and the usual first halves.
const HEADS = new Set(
  "well self ill half all ex non co cross long short high low full semi quasi state first second third twenty thirty forty fifty sixty seventy eighty ninety".split(
    " ",
  ),
);

// A hyphen at the line's end after a letter (not " -", not a dash of its own).
const HYPHEN_END = /([\p{L}\p{N}]+)-$/u;
const FIRST_WORD = /^\p{L}+/u;
// A name's mark inside the first half (cAMP, p53, MafA, DNA): names are not split by typesetters.
const NAMED = /^[\p{Lu}\p{N}]+$|\p{N}|.\p{Lu}/u;
// A word split at a line's end, both halves: no evidence of how the text writes either.
const LINE_END_SPLIT = /[\p{L}\p{N}]+-[ \t]*\n[ \t]*\p{L}+/gu;

/** The words of a text as they are written, lower case, for telling which spelling it uses. */
export interface Spellings {
  has(word: string): boolean;
}

/** The hyphenated words of `text` and every part of them, lower case, read once on first use; words split at a line's end aside. */
export function spellingsOf(text: string): Spellings {
  let words: Set<string> | undefined;
  return {
    has(word) {
      if (!words) {
        words = new Set();
        for (const w of text
          .replace(LINE_END_SPLIT, " ")
          .toLowerCase()
          .match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []) {
          words.add(w);
          if (w.includes("-")) for (const part of w.split("-")) words.add(part);
        }
      }
      return words.has(word);
    },
  };
}

/**
 * How `next` joins the line before it: after a space, or straight on with the line's last
 * character (a typesetter's hyphen or a soft hyphen) dropped. A hyphen at the end is kept when
 * the compound is written so elsewhere in the text, or the next part starts in capitals or
 * digits ("COVID-\n19"); else, unless the text writes the two halves as one word, when the
 * first half is one of HEADS or a name (NAMED), or when the second half, five letters or more,
 * is a word the text uses elsewhere after a first half of four or more ("tissue-\nresident").
 * Measured on hyphenated SciFact abstracts (test/bench/sentences.ts). Reads only the line's
 * last word, however long the paragraph.
 */
export function joinOf(line: string, next: string, spellings: Spellings): { drop: 0 | 1; sep: "" | " " } {
  const end = line.slice(-64);
  if (end.endsWith("\u00AD")) return { drop: 1, sep: "" };
  const head = HYPHEN_END.exec(end)?.[1];
  if (!head) return { drop: 0, sep: " " };
  const tail = FIRST_WORD.exec(next)?.[0];
  if (!tail || !/^\p{Ll}/u.test(tail)) return { drop: 0, sep: "" };
  const x = head.toLowerCase();
  const y = tail.toLowerCase();
  const compound = HEADS.has(x) || NAMED.test(head) || (y.length >= 5 && x.length >= 4 && spellings.has(y));
  const keep = spellings.has(`${x}-${y}`) || (!spellings.has(x + y) && compound);
  return { drop: keep ? 0 : 1, sep: "" };
}
