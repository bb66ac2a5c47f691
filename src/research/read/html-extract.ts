import { parseHTML } from "linkedom";
import { stripBoilerplate } from "./html-clean.ts";
import { type PageMeta, readMeta } from "./html-meta.ts";
import { repairShell } from "./html-repair.ts";
import { bestContainer, linkDensity } from "./html-score.ts";
import { blockText } from "./html-text.ts";

/** The main text of a page (one block per line) with its metadata. */
export interface Extracted extends PageMeta {
  text: string;
}

/** Siblings of the best container that belong to the article too (Readability's rule). */
function withSiblings(top: Element, scores: Map<Element, number>): Element[] {
  const parent = top.parentElement;
  if (!parent) return [top];
  const topScore = scores.get(top) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  const out: Element[] = [];
  for (let s = parent.firstElementChild; s; s = s.nextElementSibling) {
    if (s === top) {
      out.push(s);
      continue;
    }
    const score = scores.get(s);
    if (score !== undefined && score >= threshold) {
      out.push(s);
      continue;
    }
    if (s.tagName === "P") {
      const text = (s.textContent ?? "").trim();
      const ld = linkDensity(s, text.length);
      if (
        (text.length > 80 && ld < 0.25) ||
        (text.length > 0 && text.length <= 80 && ld === 0 && /[.!?。]$/.test(text))
      )
        out.push(s);
    }
  }
  return out;
}

/**
 * Publishers often split one article into several containers of the same kind, with ads
 * or widgets between them ("article__body" repeated down the page). Elements sharing the
 * best container's tag and class, scoring well and not link lists, belong with it; kept in
 * document order.
 */
function withTwins(top: Element, body: Element, scores: Map<Element, number>, siblings: Element[]): Element[] {
  const cls = top.getAttribute("class")?.trim();
  if (!cls || top === body) return siblings;
  const topScore = scores.get(top) ?? 0;
  const out: Element[] = [];
  for (const el of Array.from(body.getElementsByTagName(top.tagName))) {
    if (el === top) {
      out.push(...siblings);
      continue;
    }
    if (
      el.getAttribute("class")?.trim() !== cls ||
      el.contains(top) ||
      top.contains(el) ||
      siblings.some((s) => s.contains(el))
    )
      continue;
    if ((scores.get(el) ?? 0) >= Math.max(5, topScore * 0.15) && linkDensity(el) < 0.3) out.push(el);
  }
  return out;
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

/**
 * The main text of an HTML page, with its title, date, author and language. Used by the
 * engine's reading stage and by `research-query extract`. `url`, when known, helps tell
 * the site's name from the article's in <title>.
 */
export function extractMainText(html: string, url?: string): Extracted {
  const { document } = parseHTML(repairShell(html));
  const doc = document as unknown as Document;
  const meta = readMeta(doc, url);
  const body = doc.body ?? doc.documentElement;
  if (!body) return { ...meta, text: "" };
  if (deeperThan(body, MAX_DEPTH)) return { ...meta, text: (body.textContent ?? "").replace(/\s+/g, " ").trim() };
  stripBoilerplate(body);
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
  return { ...meta, text: withoutHeadline(text, [meta.title, headline(doc)]) };
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
