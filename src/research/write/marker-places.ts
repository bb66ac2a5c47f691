import { MARKER_GROUP } from "./markers.ts";
import { answerBlocks, type BlockKind } from "./verify/answer-blocks.ts";

/**
 * Where a citation may stand: after a sentence or a clause, never between two words of one.
 * A model that writes "the yield rose [S1] from 61 percent" has its marker moved to the end of
 * that sentence, before its full stop; one before a comma, a semicolon, a colon or a bracket
 * ends a clause and stays, and so does one before a capital (a sentence the model began without
 * a stop, or a name: either way no word of a clause is split). The extractive writer only ever
 * puts markers after a whole sentence (docs/decisions/0138-where-markers-stand.md).
 */

// One or more marker groups side by side, then the space and the lower-case word that carries the clause on.
const MID = new RegExp(`[ \\t]*(?:${MARKER_GROUP.source}[ \\t]*)+(?=\\p{Ll})`, "gu");
// A sentence's stop: . ! ? before white space or the block's end (closing quotes or brackets between), or 。！？.
const STOP = /(?<!\\)[.!?](?=["'”’)\]]*(?:\s|$))|[。！？]/gu;
const PROSE = new Set<BlockKind>(["paragraph", "item", "quote"]);

/** `answer` with every marker that splits a clause moved to the end of its sentence. */
export function markersAtSentenceEnds(answer: string): string {
  let out = answer;
  // From the last block back, so the offsets of the ones before stay as they were.
  for (const block of answerBlocks(answer).reverse()) {
    if (!PROSE.has(block.kind)) continue;
    out = out.slice(0, block.from) + moveInBlock(out.slice(block.from, block.to)) + out.slice(block.to);
  }
  return out;
}

function moveInBlock(text: string): string {
  let s = text;
  for (let m = nextMid(s, 0); m; m = nextMid(s, m.index)) {
    const markers = m[0].trim().replace(/[ \t]+/g, " ");
    const rest = s.slice(m.index + m[0].length);
    STOP.lastIndex = 0;
    const stop = STOP.exec(rest);
    const at = stop ? stop.index : rest.trimEnd().length;
    // The words before the stop, the markers after them: "from 61 percent [S1]."
    s = `${s.slice(0, m.index)} ${rest.slice(0, at).trimEnd()} ${markers}${rest.slice(at)}`;
  }
  return s;
}

function nextMid(s: string, from: number): RegExpExecArray | null {
  MID.lastIndex = from;
  return MID.exec(s);
}
