import { measureProse } from "./html-prose.ts";

/** Elements that never hold article text. */
const DROP_TAGS =
  "script,style,noscript,template,svg,canvas,iframe,object,embed,video,audio,map,button,select,input,textarea,dialog,link,meta";

// Boilerplate spelled in class and id names; an element that also looks like content is kept.
// "prev"/"next" name the links to the neighbouring posts, with their teasers.
const UNLIKELY =
  /(^|[-_\s])(ad|ads|advert\w*|banner|breadcrumbs?|combx|comments?|community|cookie\w*|consent|disqus|footer|gdpr|masthead|menu|modal|nav\w*|newsletter|outbrain|pagination|pager|popup|promo\w*|related|remark|replies|rss|share|sharing|shoutbox|sidebar|skip|social|sponsor\w*|subscribe\w*|taboola|tags?|toolbar|widget\w*|signup|paywall|recirc\w*|most-?popular|read-?more|author-?bio|prev|previous|next)([-_\s]|$)/i;
const MAYBE = /article|body|content|main|post|entry|story|text|column/i;
const COMMENTS = /comment|disqus|replies|respond|discussion/i;
// Reader-comment sections by their usual names (token-bounded: "responsive" is not "respond").
const COMMENT_SECTION =
  /(^|[-_\s])(comments?|comment-?list|comments?-?(area|section|container|wrap\w*)|disqus\w*|replies|respond)([-_\s]|$)/i;
// Names that mark page furniture even inside the article container: captions and photo
// credits, bylines and timestamps, galleries, share bars, "most read" boxes.
const FURNITURE =
  /(^|[-_\s])(caption\w*|credits?|photo-?credit|byline|dateline|timestamp|gallery|slideshow|carousel|lightbox|most-?read|trending|share\w*|social\w*|related\w*|newsletter\w*)([-_\s]|$)/i;

function hidden(el: Element): boolean {
  if (el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") return true;
  const style = el.getAttribute("style");
  return !!style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

function dropComments(root: Element): void {
  for (const el of Array.from(root.querySelectorAll("[class],[id]"))) {
    if (!el.parentNode || el.tagName === "BODY" || el.tagName === "HTML") continue;
    if (
      COMMENT_SECTION.test(`${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`) &&
      !el.querySelector("[itemprop=articleBody],h1")
    )
      el.remove();
  }
}

/**
 * Removes what is never the article: non-text elements, hidden ones, page chrome
 * (nav, aside, footer, role=navigation/complementary…) and blocks whose class or id names
 * boilerplate, unless the name also reads like content or the block holds the prose.
 * `byName` off is the second pass for pages whose names mislead: structure and visibility only.
 */
export function stripBoilerplate(root: Element, byName = true): void {
  // Without name rules (the second pass) a <noscript> copy of the article may be all there is.
  // Figures are illustrations with captions and credits, not the article's prose.
  const never = `${byName ? DROP_TAGS : DROP_TAGS.replace(",noscript", "")},figure,figcaption,picture`;
  for (const el of Array.from(root.querySelectorAll(never))) el.remove();
  const proseLength = measureProse(root);
  const total = proseLength(root) || 1;
  // Class names lie ("ad-margins", "advertisement-pusher" wrapping the whole page): a block
  // holding much of the page's prose, or the article itself, is never boilerplate.
  const holdsArticle = (el: Element): boolean => {
    if (el.querySelector("main,[itemprop=articleBody]")) return true;
    // Sidebars list teaser cards as <article>s too: only a sizeable one is the article.
    if (Array.from(el.querySelectorAll("article")).some((a) => proseLength(a) >= total * 0.15)) return true;
    // Reader comments can outweigh a short article; their names are honest.
    if (COMMENTS.test(`${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`)) return false;
    // <aside>, <nav> and <footer> are the author's own word; a class name is a guess.
    const share = /^(ASIDE|NAV|FOOTER)$/.test(el.tagName) ? 0.5 : 0.3;
    return proseLength(el) >= total * share;
  };
  const drop = (el: Element) => {
    if (!holdsArticle(el)) el.remove();
  };
  // Comments go first: each comment is often an <article>, which would otherwise make its
  // whole thread (and the footer around it) look like "the article" to holdsArticle.
  if (byName) dropComments(root);
  // An <article> inside a larger one is another post (a "read next" card), not a section.
  // Each is weighed against its outer article as the page gave it: measured after its
  // sibling cards had gone, the last card of a "you may also like" box would be most of
  // what is left and stay.
  const nested = Array.from(root.querySelectorAll("article article"), (el) => {
    const outer = el.parentElement?.closest("article");
    return { el, card: (el.textContent ?? "").length < (outer?.textContent ?? "").length * 0.5 };
  });
  for (const { el, card } of nested) if (card && el.parentNode) el.remove();
  for (const el of Array.from(
    root.querySelectorAll(
      'nav,aside,footer,header,[role="navigation"],[role="complementary"],[role="contentinfo"],[role="banner"],[role="dialog"],[role="alert"]',
    ),
  )) {
    // A page header is chrome; an article's own header may hold its title and byline.
    if (el.parentNode && !(el.tagName === "HEADER" && el.closest("article"))) drop(el);
  }
  const named: Element[] = [];
  for (const el of Array.from(root.querySelectorAll("[class],[id],[hidden],[aria-hidden],[style]"))) {
    if (!el.parentNode) continue;
    const tag = el.tagName;
    if (tag === "BODY" || tag === "HTML" || tag === "ARTICLE" || tag === "MAIN") continue;
    // Hidden copies (microdata twins of the article, print versions) would double the text;
    // only a page that hides most of its prose (revealed by script) keeps it.
    if (hidden(el)) {
      if (proseLength(el) <= total * 0.5) el.remove();
      continue;
    }
    const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
    if (byName && names.length > 1 && ((UNLIKELY.test(names) && !MAYBE.test(names)) || FURNITURE.test(names)))
      named.push(el);
  }
  // One name repeated down the page that together holds much of its prose is the article's
  // own structure (a story told as "gallery" sections), whatever that name suggests.
  // The first class is the block's kind; later ones are often states ("hidden", "active").
  const kind = (el: Element) => el.getAttribute("class")?.trim().split(/\s+/)[0] ?? "";
  const byKind = new Map<string, number>();
  for (const el of named) byKind.set(kind(el), (byKind.get(kind(el)) ?? 0) + proseLength(el));
  for (const el of named) {
    const k = kind(el);
    if (el.parentNode && !(k && byKind.get(k)! >= total * 0.3)) drop(el);
  }
  dropCaptionBoxes(root, proseLength);
}

// A caption or a credit is a line, not a paragraph (visible characters outside links).
const CAPTION_MAX = 150;
const TEXT_BLOCKS = "p,h1,h2,h3,h4,h5,h6,li,blockquote,table,pre,dd";
// Blocks that are text themselves: an image inside one is part of that text.
const BLOCKISH = new Set([
  "P",
  "LI",
  "TD",
  "TH",
  "BLOCKQUOTE",
  "DD",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "ARTICLE",
  "MAIN",
  "BODY",
]);

/**
 * A box that holds an image and a short text but no paragraph of its own is the image with
 * its caption or credit (figures set without <figure>): the largest such box around each
 * image goes, text and all. An image inside a paragraph leaves the paragraph alone.
 */
function dropCaptionBoxes(root: Element, proseLength: (el: Element) => number): void {
  for (const img of Array.from(root.getElementsByTagName("img"))) {
    if (!img.parentNode) continue;
    let box: Element | null = null;
    for (let a = img.parentElement; a && a !== root; a = a.parentElement) {
      if (BLOCKISH.has(a.tagName) || proseLength(a) > CAPTION_MAX || a.querySelector(TEXT_BLOCKS)) break;
      box = a;
    }
    if (box && proseLength(box) > 0) box.remove();
  }
}
