/**
 * Two lines of one paragraph as one: a space between them, or a word split by a hyphen at the
 * line's end made whole again (docs/decisions/0136-joining-wrapped-lines.md).
 */

// Words that start real compounds often enough that "well-\nknown" is "well-known": the
// spelled-out tens ("ninety-\ntwo") and the usual first halves. Anything else split at a line
// end is a typesetter's hyphen ("kilo-\ngram"), unless the text writes the compound elsewhere.
const HEADS = new Set(
  "well self ill half all ex non co cross long short high low full semi quasi state first second third twenty thirty forty fifty sixty seventy eighty ninety".split(
    " ",
  ),
);

// A hyphen at the line's end after a letter (not " -", not a dash of its own).
const HYPHEN_END = /(\p{L}+)-$/u;
const FIRST_WORD = /^\p{L}+/u;

/** The words of a text as they are written, lower case, for telling which spelling it uses. */
export interface Spellings {
  has(word: string): boolean;
}

/** The hyphenated and plain words of `text`, read once on first use. */
export function spellingsOf(text: string): Spellings {
  let words: Set<string> | undefined;
  return {
    has(word) {
      words ??= new Set(text.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []);
      return words.has(word);
    },
  };
}

/**
 * How `next` joins the line before it: after a space, or straight on with the line's last
 * character (a typesetter's hyphen or a soft hyphen) dropped. A hyphen at the end is kept when
 * the compound is written so elsewhere in the text, when the next part starts in capitals or
 * digits ("COVID-\n19"), or when the first part is one of HEADS and the text never writes the
 * two halves as one word. Reads only the line's last word, however long the paragraph.
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
  const keep = spellings.has(`${x}-${y}`) || (!spellings.has(x + y) && HEADS.has(x));
  return { drop: keep ? 0 : 1, sep: "" };
}
