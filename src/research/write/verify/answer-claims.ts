import { MARKER_GROUP } from "../markers.ts";

/**
 * The claims of an answer (README "Claims you can check"): each sentence of its paragraphs
 * and list items, with the citation markers it carries and where they stand, so the check
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
const LIST_ITEM = /^(\s*(?:[-*+]|\d+[.)])\s+)/;

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
  let fenced = false;
  let lineAt = 0;
  for (const line of answer.split("\n")) {
    const at = lineAt;
    lineAt += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || !line.trim() || /^\s*(#|\||>?\s*$)/.test(line) || /^\s*([-*_])\s*\1\s*\1[\s\-*_]*$/.test(line))
      continue;
    const prefix = LIST_ITEM.exec(line)?.[1]?.length ?? 0;
    const body = line.slice(prefix);
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
        at: at + prefix + a + m.index,
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
