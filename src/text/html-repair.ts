/**
 * A browser's tree builder keeps one <html>, one <head> and one <body> whatever the markup
 * says: a second <body> or <html> (conditional comments, templates pasted into templates)
 * only lends its attributes, a </body> or </html> before the end is ignored, and text
 * before <html> (a server's warning, meta tags printed early) lands in the body. linkedom
 * builds the tree as written, so on such pages document.body is empty or holds a fraction
 * of the article and the rest hangs beside it. Rewriting the page into that single shape
 * before parsing lets every later step read the whole document.
 */

const HTML_OPEN = /<html\b[^>]*>/gi;
const BODY_OPEN = /<body\b[^>]*>/gi;
// Every shell tag in one pass: a page is scanned once, whatever its size.
const SHELL_TAG = /<!doctype[^>]*>|<\/?(?:html|body|head)\b[^>]*>/gi;

// Attributes of a start tag, from the first one that has any (lang lives on <html>).
function attrsOf(html: string, re: RegExp): string {
  for (const m of html.matchAll(re)) {
    const attrs = m[0].replace(/^<\w+/, "").replace(/\/?>$/, "").trim();
    if (attrs) return ` ${attrs}`;
  }
  return "";
}

/**
 * The page as one html/head/body shell: the first <head>…</head> stays the head, all other
 * content (wherever it stood) becomes the body, in document order.
 */
export function repairShell(html: string): string {
  if (!/<(?:html|body|head)\b/i.test(html)) return `<!doctype html><html><body>${html}</body></html>`;
  const htmlAttrs = attrsOf(html, HTML_OPEN);
  const bodyAttrs = attrsOf(html, BODY_OPEN);
  let head = "";
  let rest = html;
  const open = /<head\b[^>]*>/i.exec(html);
  if (open) {
    const close = html.indexOf("</head", open.index);
    const end = close < 0 ? -1 : html.indexOf(">", close);
    if (end > 0) {
      head = html.slice(open.index + open[0].length, close);
      rest = html.slice(0, open.index) + html.slice(end + 1);
    }
  }
  const body = rest.replace(SHELL_TAG, "");
  return `<!doctype html><html${htmlAttrs}><head>${head}</head><body${bodyAttrs}>${body}</body></html>`;
}

// The other way a document is unfit to read as it stands: nesting no page needs.
// Real pages nest a few dozen levels (at most 50 on the benchmark's 120). Scoring costs
// grow with depth times size and the text walk recurses, so a page nested far deeper is
// hostile or broken: it gets its plain text instead of minutes of CPU or a stack overflow.
const MAX_DEPTH = 400;

/** Whether a tree nests deeper than a real page would. */
export function tooDeep(root: Element, limit = MAX_DEPTH): boolean {
  // Walks by the tree's own links (child, sibling, parent): no stack to allocate per element.
  let el: Element | null = root;
  let depth = 0;
  while (el) {
    const child: Element | null = el.firstElementChild;
    if (child) {
      if (++depth > limit) return true;
      el = child;
      continue;
    }
    while (el && el !== root && !el.nextElementSibling) {
      el = el.parentElement;
      depth--;
    }
    if (!el || el === root) return false;
    el = el.nextElementSibling;
  }
  return false;
}
