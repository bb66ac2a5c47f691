import { joinOf, spellingsOf } from "./line-join.ts";
import { continues, endsSentence, headingLike, type LineKind, lineKind } from "./line-kinds.ts";

/**
 * Plain text as a reader sees its blocks: a paragraph or list item runs on over its wrapped
 * lines (joined, hyphens undone: line-join.ts), a heading, a table and a block of code stand
 * apart, so their lines are never read as sentences (docs/decisions/0136-joining-wrapped-lines.md,
 * docs/decisions/0137-what-is-a-sentence.md).
 */
export type BlockKind = "prose" | "item" | "heading" | "code" | "table";

export interface TextBlock {
  kind: BlockKind;
  /** Prose, items and headings as one line; code and tables line by line. */
  text: string;
}

interface Line {
  text: string;
  kind: LineKind;
  /** A blank line stood before it. */
  gap: boolean;
  /**
   * It fills its group's width, in a group set in lines no longer than a page's (WRAPPED): the
   * line was wrapped where the width ran out, not where a sentence or a block ended.
   */
  full: boolean;
}

// The width of a hard-wrapped group at most: a web page's paragraphs, one a line, run longer.
const WRAPPED = 160;
// How much of the group's width a line fills to count as wrapped there (ragged right edges included).
const FULL = 0.75;

/** A group's width: its median line length, so that a long title or a short last line does not set it. */
function widthOf(lengths: number[]): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The lines of `text`, each with its kind; in a blank-line group that is mostly code, every line is code. */
function linesOf(text: string): Line[] {
  const out: Line[] = [];
  for (const group of text.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/)) {
    const lines = group.split("\n").filter((l) => l.trim());
    const kinds = lines.map(lineKind);
    const code = kinds.filter((k) => k === "code").length;
    const width = widthOf(lines.map((l) => l.trim().length));
    const wrapped = lines.length > 1 && width <= WRAPPED;
    lines.forEach((l, i) => {
      const kind = code * 2 >= lines.length ? "code" : kinds[i]!;
      out.push({ text: l.trimEnd(), kind, gap: i === 0, full: wrapped && l.trim().length >= FULL * width });
    });
  }
  return out;
}

/**
 * Whether text line `t` goes on the open block whose last line is `last` (`lastFull`: it filled
 * its wrapped group's width). After a blank line only a sentence left open and taken up in lower
 * case does (a PDF's page break); an item only where the line carries its sentence on; a
 * paragraph also where a sentence ended and `t` starts another (not in lower case) that reads as no heading, or
 * where `last` was wrapped mid-sentence ("… during\nER stress …"). A line left open and not
 * wrapped ends its block: a web page's paragraphs are one line each, and one without a full
 * stop (a caption, a label) must not run into the next.
 */
function joins(
  kind: BlockKind,
  last: string,
  lastFull: boolean,
  t: string,
  gap: boolean,
  carried: () => boolean,
): boolean {
  if (gap) return kind === "prose" && !endsSentence(last) && /^\p{Ll}/u.test(t);
  if (continues(last, t)) return true;
  if (kind !== "prose") return false;
  if (!endsSentence(last)) return lastFull;
  // A line starting in lower case after a sentence's end (no abbreviation's) begins a block of
  // its own: joined, the line break that was its only stop would be lost.
  return !/^\p{Ll}/u.test(t) && !(headingLike(t) && !carried());
}

/** A numbered section's heading ("2.3 Methods"), or words of four letters or more mostly capitalised. */
function titleCase(t: string): boolean {
  if (/^\d+(?:\.\d+)*\.?\s/.test(t)) return true;
  const long = t.split(" ").filter((w) => /^\p{L}{4,}/u.test(w));
  return long.length > 0 && long.filter((w) => /^\p{Lu}/u.test(w)).length >= 0.6 * long.length;
}

/** The blocks of `text` in order (blank lines, and nothing else, dropped). */
export function textBlocks(text: string): TextBlock[] {
  const spellings = spellingsOf(text);
  const lines = linesOf(text);
  // Each block's lines as they join: a paragraph of a whole book is joined once, at the end.
  const blocks: { kind: BlockKind; parts: string[] }[] = [];
  // The paragraph or item the next text line may continue, and its last line as written.
  let open: { kind: BlockKind; parts: string[] } | null = null;
  let last = "";
  let lastFull = false;
  const start = (kind: BlockKind, t: string) => {
    const b = { kind, parts: [t] };
    blocks.push(b);
    return b;
  };
  lines.forEach((line, i) => {
    const t = line.text.trim().replace(/\s+/g, " ");
    if (line.kind === "code" || line.kind === "table") {
      open = null;
      const prev = blocks.at(-1);
      if (prev?.kind === line.kind && !line.gap) prev.parts.push(`\n${line.text}`);
      else start(line.kind, line.text);
      return;
    }
    if (line.kind === "item") {
      open = start("item", t);
      last = t;
      lastFull = line.full;
      return;
    }
    const next = lines[i + 1];
    // The next line carries this one on: it continues the sentence, or this line was wrapped
    // where the width ran out inside a paragraph (then it is no heading, however few its words;
    // a group's first line and a line in title case may still be one).
    // Asked only of a line that could be a heading: most lines are too long or end a sentence.
    const carried = () =>
      next !== undefined &&
      !next.gap &&
      next.kind === "text" &&
      ((line.full && !line.gap && !titleCase(t)) || continues(t, next.text));
    if (open && joins(open.kind, last, lastFull, t, line.gap, carried)) {
      const { drop, sep } = joinOf(last, t, spellings);
      const end = open.parts.length - 1;
      if (drop) open.parts[end] = open.parts[end]!.slice(0, -1);
      open.parts.push(sep + t);
      last = t;
      lastFull = line.full;
      return;
    }
    if (headingLike(t) && !carried()) {
      start("heading", t);
      open = null;
      return;
    }
    open = start("prose", t);
    last = t;
    lastFull = line.full;
  });
  return blocks.map((b) => ({ kind: b.kind, text: b.parts.join("") }));
}
