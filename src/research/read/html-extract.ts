import { parseHTML } from "linkedom";
import { stripBoilerplate } from "./html-clean.ts";
import { baselineText, plainBody } from "./html-fallback.ts";
import { type PageMeta, readMeta } from "./html-meta.ts";
import { textProse } from "./html-prose-text.ts";
import { repairShell } from "./html-repair.ts";
import { bestContainer } from "./html-score.ts";
import { withSiblings, withTwins } from "./html-siblings.ts";
import { structuredBody } from "./html-structured.ts";
import { blockText } from "./html-text.ts";
import { trimFurniture } from "./html-trim.ts";

/** The main text of a page (one block per line) with its metadata. */
export interface Extracted extends PageMeta {
  text: string;
}

// Real pages nest a few dozen levels (at most 50 on the benchmark's 120). Scoring costs
// grow with depth times size and the text walk recurses, so a page nested far deeper is
// hostile or broken: it gets its plain text instead of minutes of CPU or a stack overflow.
const MAX_DEPTH = 400;

function deeperThan(root: Element, limit: number): boolean {
  const stack: [Element, number][] = [[root, 0]];
  while (stack.length) {
    const [el, d] = stack.pop()!;
    if (d > limit) return true;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push([c, d + 1]);
  }
  return false;
}

// Below this much prose (a short paragraph or two) the first pass is in doubt.
const ENOUGH_PROSE = 300;

/** The best container with the siblings and twins that belong to it, as text. */
function articleText(body: Element): string {
  const article = body.querySelectorAll("article");
  const { top, scores } = bestContainer(body);
  let roots = withTwins(top, body, scores, withSiblings(top, scores));
  // A lone <article> that holds most of the text is the publisher saying where the article is.
  if (
    article.length === 1 &&
    !article[0]!.contains(top) &&
    (article[0]!.textContent ?? "").length > (top.textContent ?? "").length * 0.8
  )
    roots = [article[0]!];
  let text = blockText(roots);
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
  if (deeperThan(body, MAX_DEPTH)) return { ...meta, text: (body.textContent ?? "").replace(/\s+/g, " ").trim() };
  const structured = structuredBody(doc);
  stripBoilerplate(body);
  let text = articleText(body);
  // Too little prose means the layout defeated the first pass (the article's container
  // named like furniture, the text only in data or <noscript>). Candidates that real
  // extractors fall back to are then compared by the prose each yields.
  if (textProse(text) < ENOUGH_PROSE) {
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

/** The page's own <h1> text, if it has exactly one (more are section titles, not a headline). */
function headline(doc: Document): string | undefined {
  const h1s = doc.querySelectorAll("h1");
  return h1s.length === 1 ? (h1s[0]!.textContent ?? undefined) : undefined;
}

const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * Drops the headline where it opens the text: it is the source's `title`, returned on its
 * own, and repeated in the body it would be quoted to the writer as if it were content.
 */
function withoutHeadline(text: string, titles: (string | undefined)[]): string {
  const known = new Set(titles.filter((t): t is string => !!t && t.trim().length > 0).map(squash));
  if (!known.size) return text;
  const lines = text.split("\n");
  // Among the first three lines: what stands above the headline is a kicker or a date line.
  const head = lines.slice(0, 3).findIndex((l) => known.has(squash(l)));
  if (head >= 0) lines.splice(0, head + 1);
  return lines.join("\n").replace(/^\n+/, "");
}
