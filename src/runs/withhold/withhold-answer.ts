import { markerGroups } from "../../research/write/markers.ts";
import { type AnswerBlock, answerBlocks } from "../../research/write/verify/answer-blocks.ts";

/** What stands in for a block of an answer that cited a withheld source; the block's markers follow it. */
export const WITHHELD_LINE = "_Withheld: this quoted a document this account can no longer read._";

/** A stretch of the original answer and what stands in for it now. */
interface Swap {
  from: number;
  to: number;
  text: string;
}

/** A table row's cells: the pipes that aren't escaped, less the outer ones. */
const cellsOf = (row: string) =>
  row
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/).length;

/** What stands in for `b` (and the blocks it took with it, up to `to`): its lead kept, so a list stays a list and a row a row. */
function standIn(answer: string, b: AnswerBlock, to: number): string {
  const markers = [...new Set(markerGroups(answer.slice(b.from, to)).map((g) => g.text))].join("");
  const says = `${WITHHELD_LINE} ${markers}`;
  if (b.kind === "row") return `${b.lead}| ${says} |${" |".repeat(cellsOf(answer.slice(b.from, b.to)) - 1)}`;
  return `${b.lead}${says}`;
}

/**
 * The answer with every block that cites a withheld source (`ids`, "S2") replaced by
 * WITHHELD_LINE followed by that block's markers, so every marker still names a listed
 * source (docs/decisions/0119-withholding-whole-blocks.md). Threat: a sentence soft-wrapped
 * over lines, whose marker stands on its last, giving away its first lines. The unit is the
 * block — a paragraph, a list item with what stands further in under it, a table row (which
 * stays a row of as many cells), a heading, a quote, a code block — because a claim's words,
 * and the words that go on from it uncited, run to its end; blocks citing nothing withheld
 * stay. `at` maps an offset of the original to the new text, a withheld block's text going
 * with the first offset past its start (src/runs/withhold/withhold.ts remaps the stream's delta ends).
 */
export function withholdBlocks(text: string, ids: Set<string>): { text: string; at: (offset: number) => number } {
  const cites = (from: number, to: number) =>
    markerGroups(text.slice(from, to)).some((g) => g.ids.some((id) => ids.has(id)));
  const blocks = answerBlocks(text);
  const swaps: Swap[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (!cites(b.from, b.to)) continue;
    // An item takes with it what stands further in: its sub-items and paragraphs go on from it.
    let to = b.to;
    if (b.kind === "item") for (; blocks[i + 1] && blocks[i + 1]!.indent > b.indent; i++) to = blocks[i + 1]!.to;
    swaps.push({ from: b.from, to, text: standIn(text, b, to) });
  }
  if (!swaps.length) return { text, at: (o) => o };
  let out = "";
  let last = 0;
  for (const s of swaps) {
    out += text.slice(last, s.from) + s.text;
    last = s.to;
  }
  out += text.slice(last);
  const at = (offset: number): number => {
    let shift = 0;
    for (const s of swaps) {
      if (offset <= s.from) break;
      if (offset < s.to) return s.from + shift + s.text.length;
      shift += s.text.length - (s.to - s.from);
    }
    return offset + shift;
  };
  return { text: out, at };
}

/**
 * The timeline's answer entry ({text, parts: [[seq, end]], chars}) with withheld blocks, its
 * delta ends moved to match; a delta left empty is dropped (a resumed stream skips its id).
 */
export function withholdAnswerEntry(data: Record<string, unknown>, ids: Set<string>): Record<string, unknown> {
  if (typeof data.text !== "string" || !ids.size) return data;
  const { text, at } = withholdBlocks(data.text, ids);
  if (text === data.text) return data;
  const parts = Array.isArray(data.parts) ? (data.parts as [number, number][]) : [];
  const moved: [number, number][] = [];
  let last = 0;
  for (const [seq, end] of parts) {
    const e = at(end);
    if (e > last) moved.push([seq, e]);
    last = Math.max(last, e);
  }
  return { ...data, text, chars: text.length, ...(parts.length ? { parts: moved } : {}) };
}
