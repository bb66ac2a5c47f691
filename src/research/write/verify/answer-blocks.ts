/**
 * An answer's Markdown blocks, as a reader sees them rather than as lines: a paragraph or a
 * list item runs on over its soft-wrapped lines, a table row is one row, a fenced block is one
 * block. The claims are the sentences of its paragraphs, items and quotes (answer-claims.ts),
 * and an earlier run withholds whole blocks (docs/decisions/0119-withholding-whole-blocks.md).
 */

export type BlockKind = "paragraph" | "item" | "quote" | "heading" | "row" | "code" | "rule";

export interface AnswerBlock {
  kind: BlockKind;
  /** Offsets in the answer: the block's first character, and the end of its last line (its newline excluded). */
  from: number;
  to: number;
  /** Its first line's Markdown lead (indent, bullet or number, `>`, `#`s): what keeps an item an item. */
  lead: string;
  /** Columns of white space before its first line's text: an item's sub-items and paragraphs stand further in. */
  indent: number;
}

const FENCE = /^\s*(```|~~~)/;
const RULE = /^\s*([-*_])\s*\1\s*\1[\s\-*_]*$/;
const HEADING = /^\s*#+\s*/;
const ROW = /^\s*\|/;
const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;
const QUOTE = /^\s*>\s?/;

function kindOf(line: string): BlockKind {
  if (RULE.test(line)) return "rule";
  if (HEADING.test(line)) return "heading";
  if (ROW.test(line)) return "row";
  if (ITEM.test(line)) return "item";
  if (QUOTE.test(line)) return "quote";
  return "paragraph";
}

const LEADS: Partial<Record<BlockKind, RegExp>> = { heading: HEADING, item: ITEM, quote: QUOTE, row: /^\s*/ };

/** The blocks of `answer` in order; blank lines stand between them and belong to none. */
export function answerBlocks(answer: string): AnswerBlock[] {
  const blocks: AnswerBlock[] = [];
  // A paragraph, item or quote that the next plain line continues (a soft wrap).
  let open: AnswerBlock | null = null;
  let fence: AnswerBlock | null = null;
  let at = 0;
  for (const line of answer.split("\n")) {
    const from = at;
    const to = from + line.length;
    at = to + 1;
    if (fence) {
      fence.to = to;
      if (FENCE.test(line)) fence = null;
      continue;
    }
    if (!line.trim()) {
      open = null;
      continue;
    }
    const kind = FENCE.test(line) ? "code" : kindOf(line);
    if (open && (kind === "paragraph" || (kind === "quote" && open.kind === "quote"))) {
      open.to = to;
      continue;
    }
    const lead = LEADS[kind]?.exec(line)?.[0] ?? (/^\s*/.exec(line)?.[0] as string);
    const block: AnswerBlock = { kind, from, to, lead, indent: /^\s*/.exec(line)![0].length };
    blocks.push(block);
    open = kind === "paragraph" || kind === "item" || kind === "quote" ? block : null;
    if (kind === "code") fence = block;
  }
  return blocks;
}

/**
 * A block's text with its Markdown leads (the first line's bullet, every line's `>`) turned
 * into spaces: the words alone, each still at its offset in the answer.
 */
export function blockBody(answer: string, b: AnswerBlock): string {
  const raw = answer.slice(b.from, b.to);
  const blank = (s: string) => " ".repeat(s.length);
  if (b.kind === "quote") return raw.replace(/^\s*>\s?/gm, blank);
  if (b.kind === "item") return blank(b.lead) + raw.slice(b.lead.length);
  return raw;
}
