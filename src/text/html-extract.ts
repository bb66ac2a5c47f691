import { parseHTML } from "linkedom";
import { stripBoilerplate } from "./html-clean.ts";
import { datelines, dropClosingNotes, dropPostscript, withoutDatelines } from "./html-edges.ts";
import { baselineText, plainBody, structuredBody } from "./html-fallback.ts";
import { type PageMeta, readMeta } from "./html-meta.ts";
import { measureProse, textProse } from "./html-prose.ts";
import { repairShell, tooDeep } from "./html-repair.ts";
import { bestContainer } from "./html-score.ts";
import { withLead, withSiblings, withTwins } from "./html-siblings.ts";
import { blockText } from "./html-text.ts";
import { headline, trimFurniture, withoutHeadline } from "./html-trim.ts";

/** The main text of a page (one block per line) with its metadata. */
export interface Extracted extends PageMeta {
  text: string;
}

// The first pass is in doubt below a short paragraph or two of prose, or when it holds
// under a third of what the cleaned page still has (it may have picked the wrong block).
const ENOUGH_PROSE = 300;
const ENOUGH_SHARE = 0.3;

/** The best container with the siblings and twins that belong to it, as text. */
function articleText(body: Element): string {
  const article = body.querySelectorAll("article");
  const { top, scores } = bestContainer(body);
  let roots = withLead(withTwins(top, body, scores, withSiblings(top, scores)), body);
  // A lone <article> that holds most of the text is the publisher saying where the article is.
  if (
    article.length === 1 &&
    !article[0]!.contains(top) &&
    (article[0]!.textContent ?? "").length > (top.textContent ?? "").length * 0.8
  )
    roots = [article[0]!];
  const dates = datelines(roots);
  dropPostscript(roots);
  dropClosingNotes(roots);
  let text = withoutDatelines(blockText(roots), dates);
  if (text.length < 200) {
    const all = blockText([body]);
    if (all.length > text.length * 2) text = all;
  }
  return text;
}

/**
 * The main text of an HTML page, with its title, date, author and language. Used by the
 * engine's reading stage and by `research-query extract`. `url`, when known, helps tell
 * the site's name from the article's in <title>.
 */
export function extractMainText(html: string, url?: string): Extracted {
  const repaired = repairShell(html);
  const { document } = parseHTML(repaired);
  const doc = document as unknown as Document;
  const meta = readMeta(doc, url);
  const body = doc.body ?? doc.documentElement;
  if (!body) return { ...meta, text: "" };
  if (tooDeep(body)) return { ...meta, text: (body.textContent ?? "").replace(/\s+/g, " ").trim() };
  const structured = structuredBody(doc);
  stripBoilerplate(body);
  const pageProse = measureProse(body)(body);
  let text = articleText(body);
  // Too little prose means the layout defeated the first pass (the article's container
  // named like furniture, the text only in data or <noscript>, a compact box outscoring an
  // article spread thin). Candidates that real extractors fall back to are then compared
  // by the prose each yields.
  if (textProse(text) < Math.max(ENOUGH_PROSE, pageProse * ENOUGH_SHARE)) {
    const plain = plainBody(repaired);
    const candidates = [text, structured];
    if (plain) candidates.push(articleText(plain), baselineText(plain));
    // A fallback replaces the first pass only with clearly more prose: short articles are
    // real, and every fallback also reads more of the page's furniture.
    const floor = textProse(text) * 2;
    for (const c of candidates) if (textProse(c) > Math.max(floor, textProse(text))) text = c;
  }
  return { ...meta, text: trimFurniture(withoutHeadline(text, [meta.title, headline(doc)])) };
}
