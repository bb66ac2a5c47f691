import { measureProse, visible } from "./html-prose.ts";

// Lines at the two edges of an article that are the publisher's, not the author's, told by
// their shape so the rules hold in any language: a dateline above the text; a note to the
// reader and a postscript below it. Each rule looks only a few lines in from its edge.

// Blocks that stand as a line of their own; a block holding one of these is not a line.
const LINE_BLOCKS = new Set(["P", "DIV", "LI", "BLOCKQUOTE", "H2", "H3", "H4", "H5", "H6", "DT", "DD", "TD"]);
const INNER_BLOCKS = new Set([...LINE_BLOCKS, "H1", "UL", "OL", "TABLE"]);
const EDGE = 3;

/** Whether a block sits anywhere under `el` (a walk by the tree's links, no selector). */
function holdsBlock(el: Element): boolean {
  let node = el.firstElementChild;
  while (node) {
    if (INNER_BLOCKS.has(node.tagName)) return true;
    if (node.firstElementChild) node = node.firstElementChild;
    else {
      while (node && node !== el && !node.nextElementSibling) node = node.parentElement;
      if (!node || node === el) return false;
      node = node.nextElementSibling;
    }
  }
  return false;
}

function reverseFrom(items: Element[], from: number): void {
  for (let i = from, j = items.length - 1; i < j; i++, j--) [items[i], items[j]] = [items[j]!, items[i]!];
}

/** A line's text and how much of it sits in links, in one walk (as linkDensity counts). */
function ownText(el: Element): { text: string; linked: number } {
  let text = "";
  let linked = 0;
  const walk = (node: Node, inLink: boolean) => {
    if (node.nodeType === 3) {
      text += node.nodeValue ?? "";
      if (inLink) linked += (node.nodeValue ?? "").length;
    } else if (node.nodeType === 1)
      for (let c = node.firstChild; c; c = c.nextSibling) walk(c, inLink || (node as Element).tagName === "A");
  };
  walk(el, false);
  return { text, linked };
}

/**
 * The first (or last) few lines of the article, as blockText will set them: innermost
 * blocks, in document order from the chosen edge. Walks only as far in as it must, since
 * most of an article is neither edge.
 */
function edgeLines(roots: Element[], fromEnd: boolean): Element[] {
  const lines: Element[] = [];
  const stack: Element[] = fromEnd ? [...roots] : [...roots].reverse();
  while (stack.length && lines.length < EDGE) {
    const el = stack.pop()!;
    if (LINE_BLOCKS.has(el.tagName) && !holdsBlock(el)) {
      const { text, linked } = ownText(el);
      // Link lists (not headings) are left out of the text anyway: they are not its lines.
      if (visible(text) && (HEADING.test(el.tagName) || linked <= text.trim().length * 0.6)) lines.push(el);
      continue;
    }
    // Children pushed so that the one nearest the edge comes off the stack first (read
    // forwards only: linkedom finds a previous sibling by walking from the first).
    const at = stack.length;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push(c);
    if (!fromEnd) reverseFrom(stack, at);
  }
  return lines;
}

/** Whether a <br> inside `el` has text on both sides of it (a trailing one does not count). */
function severalLines(el: Element): boolean {
  if (!el.getElementsByTagName("br").length) return false;
  return el.innerHTML.split(/<br\b[^>]*>/i).filter((part) => visible(part.replace(/<[^>]*>/g, "")) > 0).length > 1;
}

// A dateline is a label, not a sentence: short, not a heading, not ended as a sentence, and
// holding a date or a time of day (digits in any script: 12.03.2021, 2021, 17:32).
const DATELINE_MAX = 80;
const HEADING = /^H[1-6]$/;
const SENTENCE_END = /[.!?。！？]$/u;
const DATE = /\p{Nd}{1,2}[./-]\p{Nd}{1,2}[./-]\p{Nd}{2,4}|\p{Nd}{1,2}:\p{Nd}{2}|(?<!\p{Nd})\p{Nd}{4}(?!\p{Nd})/u;

/**
 * The line above an article that dates it ("20 Nov, 2019 05:47", "Posted on 30.03.2015 by
 * Admin") repeats what the source's `published_at` says and is not the article's text. A
 * heading or a sentence that happens to name a year stays. Returned as text for the caller
 * to leave out: removing the element would change the link density of the box around it.
 */
export function datelines(roots: Element[]): Set<string> {
  const found = new Set<string>();
  for (const el of edgeLines(roots, false)) {
    const text = (el.textContent ?? "").replace(/\s+/g, " ").trim();
    // A block broken by <br> is several lines: one of them may be the dateline, not all.
    if (severalLines(el) || HEADING.test(el.tagName)) continue;
    if (visible(text) < DATELINE_MAX && !SENTENCE_END.test(text) && DATE.test(text)) found.add(text);
  }
  return found;
}

/** The text without the `datelines` found among its first lines. */
export function withoutDatelines(text: string, dates: Set<string>): string {
  if (!dates.size) return text;
  return text
    .split("\n")
    .filter((line, i) => !(i < EDGE && dates.has(line)))
    .join("\n");
}

// How long a closing note may be and how much of it is set in bold or italics.
const NOTE_MAX = 400;
const EMPHASIS_SHARE = 0.8;
const EMPHASIS = new Set(["STRONG", "B", "EM", "I"]);
const SUBHEADING = /^H[2-6]$/;
// An e-mail address or a social handle sends the reader elsewhere as a link does.
const ADDRESS = /[\w.+-]+@[\w-]+\.[\w.]+|(^|\s)@\w{2,}/u;

/** Visible characters of `el` set apart (bold, italics, a heading), and whether any sit in a link. */
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
  // A heading is set apart as bold is; a closing one that is a link names another page.
  walk(el, SUBHEADING.test(el.tagName), false);
  return { emphasised, linked };
}

/**
 * The publisher's note to the reader at the end of an article — "follow us on …", "sign up
 * for our newsletter", "write to the author at …", "get our app", "related coverage" — is
 * set apart from the text (bold, italics, a heading) and points elsewhere, by a link or an
 * address. Among the last few
 * lines of the article, a short one wholly emphasised that points elsewhere goes. A closing
 * line in bold that points nowhere (a last word, a summary) and a plain sentence with a link
 * are the author's and stay.
 */
export function dropClosingNotes(roots: Element[]): void {
  for (const el of edgeLines(roots, true)) {
    const text = el.textContent ?? "";
    const size = visible(text);
    // A note is one line; a block broken by <br> is a passage of the text.
    if (size > NOTE_MAX || severalLines(el)) continue;
    const { emphasised, linked } = shape(el);
    if (emphasised >= size * EMPHASIS_SHARE && (linked || ADDRESS.test(text))) el.remove();
  }
}

// A postscript is a paragraph or two, not a second half of the article.
const POSTSCRIPT_SHARE = 0.35;
const POSTSCRIPT_MAX = 1000;

/**
 * A horizontal rule late in an article is the author's or the publisher's own separator:
 * what follows the last one — "About <company>" in a press release, an editor's note, a
 * disclaimer, a "more stories" list — is a postscript to the article, not its text. It goes
 * when it is a small part of the whole (at most a third of the prose, about two paragraphs).
 */
export function dropPostscript(roots: Element[]): void {
  const root = roots[roots.length - 1];
  const rules = root?.getElementsByTagName("hr");
  const hr = rules?.[rules.length - 1];
  if (!root || !hr) return;
  const prose = measureProse(root);
  const total = roots.reduce((sum, r) => sum + (r === root ? prose(r) : measureProse(r)(r)), 0);
  const after: Element[] = [];
  let tail = 0;
  for (let el: Element | null = hr; el && el !== root; el = el.parentElement)
    for (let s = el.nextElementSibling; s; s = s.nextElementSibling) {
      after.push(s);
      tail += prose(s);
    }
  if (tail > 0 && tail <= total * POSTSCRIPT_SHARE && tail <= POSTSCRIPT_MAX) for (const el of after) el.remove();
}
