import { visible } from "./html-prose.ts";

const PARA_SEL = "p,pre,td,blockquote,li,h2,h3,dd";
const POSITIVE = /article|body|content|entry|main|page|post|text|blog|story|hentry/i;
const NEGATIVE =
  /hidden|combx|comment|com-|contact|foot|footer|footnote|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|widget|byline|caption/i;

const PART_ONLY = new Set(["UL", "OL", "DL", "TR", "TBODY", "THEAD"]);

function classWeight(el: Element): number {
  let w = 0;
  for (const v of [el.getAttribute("class"), el.getAttribute("id")]) {
    if (!v) continue;
    if (NEGATIVE.test(v)) w -= 10;
    if (POSITIVE.test(v)) w += 10;
  }
  return w;
}

function tagWeight(tag: string): number {
  switch (tag) {
    case "ARTICLE":
      return 10;
    case "MAIN":
    case "SECTION":
    case "DIV":
      return 5;
    case "PRE":
    case "TD":
    case "BLOCKQUOTE":
      return 3;
    case "OL":
    case "UL":
    case "DL":
    case "DD":
    case "DT":
    case "LI":
    case "FORM":
    case "ADDRESS":
      return -3;
    case "H1":
    case "H2":
    case "H3":
    case "H4":
    case "H5":
    case "H6":
    case "TH":
      return -5;
    default:
      return 0;
  }
}

/** Share of an element's text that sits inside links (menus and link lists score high). */
export function linkDensity(el: Element, textLength?: number): number {
  const total = textLength ?? (el.textContent ?? "").length;
  if (!total) return 0;
  let inLinks = 0;
  for (const a of Array.from(el.querySelectorAll("a"))) inLinks += (a.textContent ?? "").length;
  return Math.min(1, inLinks / total);
}

/**
 * `linkDensity` of every element under `root`, from one walk: scoring asks it of every
 * candidate, and asking each subtree on its own costs depth × size.
 */
function linkDensities(root: Element): Map<Element, number> {
  const out = new Map<Element, number>();
  let text = 0;
  let links = 0;
  const walk = (el: Element) => {
    const text0 = text;
    const links0 = links;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) text += (c.nodeValue ?? "").length;
      else if (c.nodeType === 1) {
        const before = text;
        walk(c as Element);
        // A link's whole text counts, as querySelectorAll("a") would count it.
        if ((c as Element).tagName === "A") links += text - before;
      }
    }
    const own = text - text0;
    out.set(el, own ? Math.min(1, (links - links0) / own) : 0);
  };
  walk(root);
  return out;
}

/**
 * Readability's idea, compacted: every paragraph-like block votes for its ancestors by its
 * length and commas (full for the parent, half for the grandparent, a third above);
 * candidates are weighted by tag and class names and discounted by link density. The
 * best-scoring container holds the article.
 */
export function bestContainer(body: Element): { top: Element; scores: Map<Element, number> } {
  const scores = new Map<Element, number>();
  const init = (el: Element) => {
    if (!scores.has(el)) scores.set(el, tagWeight(el.tagName) + classWeight(el));
  };
  const blocks: [Element, string][] = Array.from(body.querySelectorAll(PARA_SEL), (p) => [
    p,
    (p.textContent ?? "").trim(),
  ]);
  // Text set straight in a <div> (paragraphs split by <br>) is a paragraph too, as
  // Readability treats such divs; only its own text nodes count, not its children's.
  for (const div of Array.from(body.querySelectorAll("div"))) {
    let own = "";
    for (let c = div.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) own += c.nodeValue ?? "";
    own = own.trim();
    if (own.length >= 25) blocks.push([div, own]);
  }
  for (const [p, text] of blocks) {
    if (text.length < 25) continue;
    const votes = 1 + (text.match(/[,，、;]/g)?.length ?? 0) + Math.min(Math.floor(text.length / 100), 3);
    let anc: Element | null = p.parentElement;
    for (let level = 0; anc && level < 4; level++, anc = anc.parentElement) {
      if (anc === body.parentElement) break;
      init(anc);
      scores.set(anc, scores.get(anc)! + votes / (level === 0 ? 1 : level === 1 ? 2 : level * 3));
    }
  }
  let top: Element = body,
    best = -Infinity;
  const density = linkDensities(body);
  for (const [el, s] of scores) {
    const final = s * (1 - (density.get(el) ?? linkDensity(el)));
    scores.set(el, final);
    // A list or a table row is a part of a text (references, comments, a signatory table),
    // never the whole of it: it votes for its container but does not compete with it.
    if (PART_ONLY.has(el.tagName)) continue;
    if (final > best) {
      best = final;
      top = el;
    }
  }
  top = nearHeadline(body, top, best, scores);
  // A container whose parent scores nearly as well is one column of a larger article.
  for (let p = top.parentElement; p && p !== body.parentElement; p = p.parentElement) {
    const ps = scores.get(p);
    if (ps === undefined || ps < best * 0.75) break;
    top = p;
  }
  return { top, scores };
}

// How far above the headline the article's own region reaches (h1 → header → article → main).
const HEADLINE_REACH = 3;
const HEADLINE_SHARE = 0.5;
// Under the headline there must be an article's worth of text, not only a standfirst.
const HEADLINE_TEXT = 500;

/**
 * The page's one <h1> names its article, and the article's text stands near it. A block far
 * from the headline (a comment thread, a popup, a "related" list) that outscores the text
 * under it is a bigger block, not the article: a container within a few levels of the
 * headline that scores at least half as well wins instead.
 */
function nearHeadline(body: Element, top: Element, best: number, scores: Map<Element, number>): Element {
  const h1s = body.getElementsByTagName("h1");
  if (h1s.length !== 1 || top.contains(h1s[0]!)) return top;
  let region: Element = h1s[0]!;
  for (let i = 0; i < HEADLINE_REACH && region.parentElement && region.parentElement !== body; i++)
    region = region.parentElement;
  if (region.contains(top)) return top;
  let near = top,
    nearBest = best * HEADLINE_SHARE;
  for (const [el, s] of scores)
    if (s >= nearBest && !PART_ONLY.has(el.tagName) && region.contains(el)) {
      near = el;
      nearBest = s;
    }
  return near !== top && visible(near.textContent ?? "") >= HEADLINE_TEXT ? near : top;
}
