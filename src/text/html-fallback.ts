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

/**
 * The article text a page states as data: schema.org `articleBody` (or `text`) in JSON-LD.
 * Pages that render their story by script often carry it only there; it is the
 * publisher's own word on what the article is, so it needs no layout heuristics.
 */
export function structuredBody(doc: Document): string {
  let best = "";
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || !v || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if ((k === "articleBody" || k === "text") && typeof x === "string" && x.length > best.length) best = x;
      else if (typeof x === "object") visit(x, depth + 1);
    }
  };
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      visit(JSON.parse(s.textContent ?? ""), 0);
    } catch {
      /* broken JSON-LD says nothing */
    }
  }
  // Some publishers put HTML in the string; the reader wants its text, one paragraph a line.
  return best
    .replace(/<\/?(p|br|div|h\d|li)\b[^>]*>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}
