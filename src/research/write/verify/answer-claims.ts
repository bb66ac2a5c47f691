import { MARKER_GROUP } from "../markers.ts";
import { answerBlocks, type BlockKind, blockBody } from "./answer-blocks.ts";

/**
 * The claims of an answer (README "Claims you can check"): each sentence of its paragraphs
 * and list items (answer-blocks.ts: a sentence wrapped over lines is one claim), with the citation markers it carries and where they stand, so the check
 * can take a marker out without touching anything else. Headings, code, table rows and a
 * lead-in line ending in ":" without a marker are not claims
 * (docs/decisions/0107-claims-in-an-answer.md).
 */
export interface AnswerClaim {
  /** The claim as it reads, without markers or inline Markdown: what is checked and shown. */
  text: string;
  /** Each marker ([S1]) in it: where it stands in the answer, and the source it names. */
  markers: { at: number; length: number; id: string }[];
}

// A sentence ends after . ! ? (closing quotes or brackets allowed), any markers that follow
// it, then white space before something that isn't lower case; or after 。！？ and markers.
// An escaped one ("1\. ") is the text's own, not an end.
const END = /(?<!\\)[.!?]["'”’)\]]*(?:\s*\[S\d+\])*\s+(?=[^\p{Ll}[])|[。！？](?:\s*\[S\d+\])*/gu;
// A backslash escape (CommonMark: any ASCII punctuation), and the private-use stand-in it is
// read as while links and emphasis are taken out, so an escaped "*" or "[" stays text.
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
const STANDIN = /[\u{F0000}-\u{F007F}]/gu;
/** The blocks whose sentences are claims: headings, code, table rows and rules are not. */
const CLAIMED = new Set<BlockKind>(["paragraph", "item", "quote"]);

/** Inline Markdown as a reader sees it: links' text, no emphasis or code ticks. */
export function plainText(markdown: string): string {
  return markdown
    .replace(ESCAPED, (_, c: string) => String.fromCodePoint(0xf0000 + c.charCodeAt(0)))
    .replace(MARKER_GROUP, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__|\*|_|`)(?=\S)([^*_`]*?\S)\1/g, "$2")
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:!?。！？])/g, "$1")
    .replace(STANDIN, (c) => String.fromCharCode(c.codePointAt(0)! - 0xf0000))
    .trim();
}

export function answerClaims(answer: string): AnswerClaim[] {
  const out: AnswerClaim[] = [];
  for (const block of answerBlocks(answer)) {
    if (!CLAIMED.has(block.kind)) continue;
    const body = blockBody(answer, block);
    let from = 0;
    const pieces: [number, number][] = [];
    for (const m of body.matchAll(END)) {
      const to = m.index + m[0].trimEnd().length;
      pieces.push([from, to]);
      from = m.index + m[0].length;
    }
    if (from < body.length) pieces.push([from, body.length]);
    for (const [a, b] of pieces) {
      const raw = body.slice(a, b);
      const markers = [...raw.matchAll(/\[S(\d+)\]/g)].map((m) => ({
        at: block.from + a + m.index,
        length: m[0].length,
        id: `S${m[1]}`,
      }));
      const text = plainText(raw);
      // Markers standing alone after a sentence ("… rooms. [S2]") belong to it.
      if (!/[\p{L}\p{N}]/u.test(text)) {
        out[out.length - 1]?.markers.push(...markers);
        continue;
      }
      if (!markers.length && /:$/.test(text)) continue;
      out.push({ text, markers });
    }
  }
  return out;
}
