import { visible } from "./html-prose.ts";
import { linkDensity } from "./html-score.ts";

// Blocks that end an article as a line of their own.
const LINE_BLOCKS = "p,div,li,blockquote,h2,h3,h4,h5,h6,dd,td";
const INNER_BLOCKS = "p,div,li,blockquote,h1,h2,h3,h4,h5,h6,dd,td,ul,ol,table";
// How far from the end a note stands, how long it may be, how much of it is emphasised.
const TAIL = 3;
const NOTE_MAX = 400;
const EMPHASIS_SHARE = 0.8;
const EMPHASIS = new Set(["STRONG", "B", "EM", "I"]);
// An e-mail address or a social handle sends the reader elsewhere as a link does.
const ADDRESS = /[\w.+-]+@[\w-]+\.[\w.]+|(^|\s)@\w{2,}/u;

/** Visible characters of `el` set in bold or italics, and whether any sit in a link. */
function shape(el: Element): { emphasised: number; linked: boolean } {
  let emphasised = 0;
  let linked = false;
  const walk = (node: Node, em: boolean, inLink: boolean) => {
    if (node.nodeType === 3) {
      const n = visible(node.nodeValue ?? "");
      if (em) emphasised += n;
      if (inLink && n > 0) linked = true;
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = (node as Element).tagName;
    for (let c = node.firstChild; c; c = c.nextSibling) walk(c, em || EMPHASIS.has(tag), inLink || tag === "A");
  };
  walk(el, false, false);
  return { emphasised, linked };
}

/**
 * The publisher's note to the reader at the end of an article — "follow us on …", "sign up
 * for our newsletter", "write to the author at …", "get our app" — is set apart from the
 * text in bold or italics and points elsewhere, by a link or an address. Among the last few
 * lines of the article, a short one wholly emphasised that points elsewhere goes. A closing
 * line in bold that points nowhere (a last word, a summary) and a plain sentence with a link
 * are the author's and stay.
 */
export function dropClosingNotes(roots: Element[]): void {
  const lines: Element[] = [];
  for (let r = roots.length - 1; r >= 0 && lines.length < TAIL; r--) {
    const root = roots[r]!;
    const blocks = [root, ...Array.from(root.querySelectorAll(LINE_BLOCKS))];
    for (let i = blocks.length - 1; i >= 0 && lines.length < TAIL; i--) {
      const el = blocks[i]!;
      if (el.querySelector(INNER_BLOCKS)) continue;
      const text = el.textContent ?? "";
      // Link lists are left out of the text anyway: they are not its last lines.
      if (!visible(text) || linkDensity(el, text.trim().length) > 0.6) continue;
      lines.push(el);
    }
  }
  for (const el of lines) {
    const text = el.textContent ?? "";
    const size = visible(text);
    if (size > NOTE_MAX) continue;
    const { emphasised, linked } = shape(el);
    if (emphasised >= size * EMPHASIS_SHARE && (linked || ADDRESS.test(text))) el.remove();
  }
}
