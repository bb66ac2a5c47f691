import { ABBREV, INITIAL } from "./line-kinds.ts";
import { textBlocks } from "./text-blocks.ts";

// Scripts written without spaces between words count a character as a word, so their
// passages stay as short as everyone else's (and within the writer's token budget).
const DENSE = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}";
const DENSE_CHARS = new RegExp(`[${DENSE}]`, "gu");
const UNITS = new RegExp(`[${DENSE}]|[^\\s${DENSE}]+`, "gu");
const words = (s: string) => s.split(/\s+/).filter(Boolean).length + (s.match(DENSE_CHARS)?.length ?? 0);

/**
 * Splits text into passages of about `target` words (80–150 in practice) on block (text-blocks.ts:
 * wrapped lines joined, headings, code and tables apart), then sentence boundaries; a run-on
 * piece without sentence ends (lists, code) is cut into windows of `max` words so no passage
 * outgrows the budget. Blocks in a passage stand a blank line apart, so a heading or a code
 * line is read back as one (docs/decisions/0136-joining-wrapped-lines.md).
 */
export function splitPassages(text: string, target = 110, max = 170): string[] {
  const out: string[] = [];
  let cur = "";
  let n = 0;
  const push = () => {
    if (cur) out.push(cur);
    cur = "";
    n = 0;
  };
  // A heading waiting for the block it heads: it goes into that block's passage, never ends one.
  let heading = "";
  for (const { kind, text: p } of textBlocks(text)) {
    if (kind === "heading") {
      heading = heading ? `${heading}\n\n${p}` : p;
      continue;
    }
    const pieces =
      words(p) > max
        ? (p.includes("\n") ? [p] : lineSentences(p)).flatMap((s) => (words(s) > max ? windows(s, target) : [s]))
        : [p];
    pieces.forEach((piece, i) => {
      const k = words(piece) + words(heading);
      if (n && n + k > max) push();
      // A paragraph's sentences go on after a space; the next block after a blank line.
      const lead = heading ? `${heading}\n\n` : "";
      cur += (cur ? (i ? " " : "\n\n") : "") + lead + piece;
      heading = "";
      n += k;
      if (n >= target) push();
    });
  }
  if (heading) cur += (cur ? "\n\n" : "") + heading;
  push();
  return out.filter((p) => p.length >= 40);
}

/** Cuts a run-on piece every `size` words (a dense-script character is a word), keeping its own spacing. */
function windows(s: string, size: number): string[] {
  const units = [...s.matchAll(UNITS)];
  const out: string[] = [];
  for (let i = 0; i < units.length; i += size) {
    const last = units[Math.min(i + size, units.length) - 1]!;
    out.push(s.slice(units[i]!.index, last.index + last[0].length));
  }
  return out;
}

const DENSE_END = /[。！？]$/;
// Where a sentence may end: after . ! ? and any closing quotes or brackets, before a space and
// something; or right after 。！？. Matched forwards from the stop: a look-behind over the closing
// marks was tried at every character of the line.
const STOP = /[.!?]["'”’)\]]*(?= \S)|[。！？]/gu;
// The end of a sentence that every glue rule reads: longer than the longest abbreviation with
// the character before it ("(approx."), so a rule's "^" never lands inside a word.
const TAIL = 10;

/**
 * Sentence split: after . ! ? (and closing quotes) followed by white space, and after
 * 。！？ directly. Abbreviations ("e.g.", "Dr."), initials, a lower-case continuation and
 * very short pieces stay with their neighbour. A paragraph's wrapped lines are one (text-blocks.ts);
 * a heading, a code line and a table row are each a piece of their own.
 */
export function splitSentences(text: string): string[] {
  return textBlocks(text).flatMap((b) =>
    b.kind === "prose" || b.kind === "item" ? lineSentences(b.text) : b.text.split("\n").map((l) => l.trim()),
  );
}

// A sentence begun half-way starts in lower case or with what closes or continues a clause —
// unless its first word is a name written in lower case (mTOR, p53, siRNA, c-Myc, α-synuclein),
// as science's sentences often begin.
const HALF_BEGUN = /^[\p{Ll}\p{M},;:.!?)\]}…%’”–—<>=+×/&]/u;
const LOWER_NAME = /^(?:\p{Ll}+[\p{Lu}\p{N}]|\p{Script=Greek}[-‐]|\p{Ll}[-‐]\p{Lu})/u;
const halfBegun = (s: string) => HALF_BEGUN.test(s) && !LOWER_NAME.test(s);
const lowerBegun = (s: string) => /^\p{Ll}/u.test(s) && !LOWER_NAME.test(s);
// A statement ends with . ! or 。！ and any closing marks; a question is not a claim.
const ENDS = /[.!。！]["'”’)\]]*$/u;
const BULLET = /^\s*(?:[-*+•▪◦‣]|\d{1,3}[.)]|\(?[a-z]\))\s+/;

/**
 * The whole sentences of the text's paragraphs and list items: each starts like a sentence and
 * ends like one, so a piece cut at a passage's edge or a wrapped line's half never counts, and
 * nothing of a heading, code or a table does (docs/decisions/0137-what-is-a-sentence.md).
 */
export function wholeSentences(text: string): string[] {
  return textBlocks(text)
    .flatMap((b) =>
      b.kind === "prose" ? lineSentences(b.text) : b.kind === "item" ? lineSentences(b.text.replace(BULLET, "")) : [],
    )
    .filter((s) => !halfBegun(s) && ENDS.test(s));
}

/** A line's pieces between the places a sentence may end, in order, none empty. */
function pieces(line: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (const m of line.matchAll(STOP)) {
    const to = m.index + m[0].length;
    if (to > from) out.push(line.slice(from, to));
    // The space after . ! ? is a separator; after 。！？ it stays with the next piece, as it always has.
    from = DENSE_END.test(m[0]) ? to : to + 1;
  }
  if (from < line.length) out.push(line.slice(from));
  return out;
}

// Linear in the line: each glue rule reads only a sentence's last TAIL characters and its
// length, and a sentence's pieces are joined once. A page read whole is attacker-sized text;
// re-testing the growing sentence made one 280 KB line hold the thread for 18 s.
function lineSentences(line: string): string[] {
  const out: string[] = [];
  let parts: string[] = [];
  let length = 0;
  let tail = "";
  const close = () => {
    if (parts.length) out.push(parts.join(""));
  };
  for (const s of pieces(line.replace(/\s+/g, " ").trim())) {
    const dense = DENSE_END.test(tail);
    const glue =
      parts.length > 0 && (ABBREV.test(tail) || INITIAL.test(tail) || lowerBegun(s) || length < (dense ? 6 : 20));
    const sep = glue && !dense ? " " : "";
    if (!glue) {
      close();
      parts = [];
      length = 0;
      tail = "";
    }
    if (sep) parts.push(sep);
    parts.push(s);
    length += sep.length + s.length;
    tail = (s.length >= TAIL ? s : tail + sep + s).slice(-TAIL);
  }
  close();
  return out;
}

/**
 * Text without the title it starts with. The run puts a source's title before its text so
 * ranking sees it, and a Markdown document's heading is its title: quoted or shown as a
 * snippet, the title (which has no full stop) would run into the first sentence.
 */
export function withoutTitle(text: string, title: string): string {
  const t = title.trim();
  if (!t || !text.startsWith(t)) return text;
  return text.length === t.length ? "" : /\s/.test(text[t.length]!) ? text.slice(t.length + 1).trimStart() : text;
}
