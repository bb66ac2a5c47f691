import { parseHTML } from "linkedom";
import { stripBoilerplate } from "./html-clean.ts";
import { linkDensity } from "./html-score.ts";
import { blockText } from "./html-text.ts";

// Blocks a baseline reads as paragraphs; a <div> counts when it sets text itself.
const PARAGRAPHS = "p,pre,blockquote,h2,h3,div";

/**
 * Every paragraph-like block of the page that is not a link list, in document order:
 * what trafilatura falls back to when the layout defeats every guess about containers.
 */
export function baselineText(body: Element): string {
  const picked: Element[] = [];
  for (const el of Array.from(body.querySelectorAll(PARAGRAPHS))) {
    if (picked.length && picked[picked.length - 1]!.contains(el)) continue;
    const len = (el.textContent ?? "").trim().length;
    // A <div> is a paragraph only when the text is its own, not its children's.
    if (el.tagName === "DIV" && ownText(el) < Math.max(25, len / 2)) continue;
    if (len >= 25 && linkDensity(el, len) < 0.5) picked.push(el);
  }
  return blockText(picked);
}

function ownText(div: Element): number {
  let own = 0;
  for (let c = div.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) own += (c.nodeValue ?? "").trim().length;
  return own;
}

/**
 * A fresh copy of the page with only what is never prose removed: no class-name rules, so
 * an article whose container is named like furniture survives, and <noscript> copies stay.
 */
export function plainBody(repaired: string): Element | null {
  const body = (parseHTML(repaired).document as unknown as Document).body;
  if (body) stripBoilerplate(body, false);
  return body;
}
