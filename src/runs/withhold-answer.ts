import { markerGroups } from "../research/write/markers.ts";

/** What stands in for a line of an answer that cited a withheld source; the line's markers follow it. */
export const WITHHELD_LINE = "_Withheld: this quoted a document this account can no longer read._";

/** A line's Markdown lead (indent, list bullet or number, quote, heading), kept so lists stay lists. */
const LEAD = /^(?:\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*|#{1,6}\s+))*/;

/** A stretch of the original answer and what it reads as now. */
interface Piece {
  from: number;
  to: number;
  text: string;
  withheld: boolean;
}

/**
 * The answer with every line that cites a withheld source (`ids`, "S2") replaced by
 * WITHHELD_LINE followed by that line's markers, so every marker still names a listed
 * source. A line is the unit because the extractive writer quotes one source a line, and a
 * model is told to cite each claim where it makes it; lines citing nothing withheld stay.
 * `at` maps an offset of the original to the new text, a withheld line's text going with
 * the offset where the line began (src/runs/withhold.ts remaps the stream's delta ends).
 */
export function withholdLines(text: string, ids: Set<string>): { text: string; at: (offset: number) => number } {
  const pieces: Piece[] = [];
  let from = 0;
  for (const line of text.split("\n")) {
    const to = from + line.length;
    const groups = markerGroups(line);
    const withheld = groups.some((g) => g.ids.some((id) => ids.has(id)));
    const lead = withheld ? (LEAD.exec(line)?.[0] ?? "") : "";
    pieces.push({
      from,
      to,
      text: withheld ? `${lead}${WITHHELD_LINE} ${[...new Set(groups.map((g) => g.text))].join("")}` : line,
      withheld,
    });
    if (to < text.length) pieces.push({ from: to, to: to + 1, text: "\n", withheld: false });
    from = to + 1;
  }
  if (!pieces.some((p) => p.withheld)) return { text, at: (o) => o };
  const out = pieces.map((p) => p.text).join("");
  const at = (offset: number): number => {
    let n = 0;
    for (const p of pieces) {
      if (offset <= p.from) break;
      if (offset >= p.to || p.withheld) n += p.text.length;
      else n += offset - p.from;
      if (offset < p.to) break;
    }
    return n;
  };
  return { text: out, at };
}

/**
 * The timeline's answer entry ({text, parts: [[seq, end]], chars}) with withheld lines, its
 * delta ends moved to match; a delta left empty is dropped (a resumed stream skips its id).
 */
export function withholdAnswerEntry(data: Record<string, unknown>, ids: Set<string>): Record<string, unknown> {
  if (typeof data.text !== "string" || !ids.size) return data;
  const { text, at } = withholdLines(data.text, ids);
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
