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
