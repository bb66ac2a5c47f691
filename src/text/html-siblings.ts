import { linkDensity } from "./html-score.ts";

/** Siblings of the best container that belong to the article too (Readability's rule). */
export function withSiblings(top: Element, scores: Map<Element, number>): Element[] {
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
export function withTwins(top: Element, body: Element, scores: Map<Element, number>, siblings: Element[]): Element[] {
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

// A lead is at least a sentence (a byline, a date or a label is not), ended as one.
const LEAD_MIN = 60;
const LEAD_MAX = 800;
const SENTENCE_END = /[.!?…。！？"”»)]$/;

/**
 * The lead (standfirst, intro, teaser) is often set in a box of its own between the
 * headline and the body, where the body's container does not reach. Blocks that read as
 * prose between the page's one <h1> and the first of the article's roots belong to it.
 */
export function withLead(roots: Element[], body: Element): Element[] {
  const first = roots[0];
  const h1s = body.getElementsByTagName("h1");
  if (!first || h1s.length !== 1) return roots;
  const h1 = h1s[0]!;
  if (roots.some((r) => r.contains(h1))) return roots;
  const lead: Element[] = [];
  let after = false;
  for (const el of Array.from(body.querySelectorAll("h1,p,blockquote,div"))) {
    if (el === h1) after = true;
    if (!after || el === h1 || el.contains(first)) continue;
    // Reaching the body first means the headline comes after it: there is no lead to find.
    if (el === first || first.contains(el)) break;
    // Paragraphs only: a box of several blocks there is a teaser list or a ticker.
    if (el.tagName === "DIV" && el.querySelector("p,div,li,blockquote,h2,h3")) continue;
    const text = (el.textContent ?? "").trim();
    const size = text.replace(/\s+/g, "").length;
    if (size >= LEAD_MIN && size <= LEAD_MAX && linkDensity(el, text.length) < 0.3 && SENTENCE_END.test(text))
      lead.push(el);
  }
  // A lead is a paragraph or two; more prose in that gap is a block the scoring passed over.
  return lead.length && lead.length <= 2 ? [...lead, ...roots] : roots;
}
