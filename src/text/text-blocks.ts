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
}

/** The lines of `text`, each with its kind; in a blank-line group that is mostly code, every line is code. */
function linesOf(text: string): Line[] {
  const out: Line[] = [];
  for (const group of text.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/)) {
    const lines = group.split("\n").filter((l) => l.trim());
    const kinds = lines.map(lineKind);
    const code = kinds.filter((k) => k === "code").length;
    lines.forEach((l, i) => {
      out.push({ text: l.trimEnd(), kind: code * 2 >= lines.length ? "code" : kinds[i]!, gap: i === 0 });
    });
  }
  return out;
}

/**
 * Whether text line `t` goes on the open block whose last line is `last`. After a blank line
 * only a sentence left open and taken up in lower case does (a PDF's page break); an item only
 * where the line carries its sentence on; a paragraph also where a sentence ended and `t` starts
 * another that reads as no heading. A line left open that `t` does not carry on ends its block:
 * a web page's paragraphs are one line each, and one without a full stop (a caption, a label)
 * must not run into the next.
 */
function joins(kind: BlockKind, last: string, t: string, gap: boolean, carried: boolean): boolean {
  if (gap) return kind === "prose" && !endsSentence(last) && /^\p{Ll}/u.test(t);
  if (continues(last, t)) return true;
  return kind === "prose" && endsSentence(last) && !(headingLike(t) && !carried);
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
      return;
    }
    const next = lines[i + 1];
    const carried = next !== undefined && !next.gap && next.kind === "text" && continues(t, next.text);
    if (open && joins(open.kind, last, t, line.gap, carried)) {
      const { drop, sep } = joinOf(last, t, spellings);
      const end = open.parts.length - 1;
      if (drop) open.parts[end] = open.parts[end]!.slice(0, -1);
      open.parts.push(sep + t);
      last = t;
      return;
    }
    if (headingLike(t) && !carried) {
      start("heading", t);
      open = null;
      return;
    }
    open = start("prose", t);
    last = t;
  });
  return blocks.map((b) => ({ kind: b.kind, text: b.parts.join("") }));
}
