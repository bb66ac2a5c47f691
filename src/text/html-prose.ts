/**
 * How much reading text an element holds: visible characters outside links, whitespace not
 * counted. Indentation can be most of a page's raw text and menus are mostly links, so
 * neither should make a block look like (or unlike) the article. Characters, not words, so
 * the measure means the same for German compounds, Chinese or Arabic.
 */
export type Prose = (el: Element) => number;

/**
 * Measures every element under `root` in one walk (callers ask about many nested blocks;
 * measuring each subtree on its own would cost depth × size). Blocks removed later keep
 * their old figure, which only errs towards keeping their ancestors.
 */
export function measureProse(root: Element): Prose {
  const sizes = new Map<Element, number>();
  const walk = (el: Element): number => {
    let n = 0;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) n += visible(c.nodeValue ?? "");
      else if (c.nodeType === 1) {
        const child = walk(c as Element);
        if ((c as Element).tagName !== "A") n += child;
      }
    }
    sizes.set(el, n);
    return n;
  };
  walk(root);
  return (el) => sizes.get(el) ?? walk(el);
}

/** Non-whitespace characters of a text. */
export function visible(s: string): number {
  let k = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!(c === 32 || (c >= 9 && c <= 13) || c === 160)) k++;
  }
  return k;
}

/**
 * How much running prose an extracted text holds: the visible characters of its lines
 * long enough to be sentences. Menus, tag clouds, dates and buttons come out as short
 * lines, so two candidate texts compare by what a reader would read. A CJK character
 * carries about a word, so it counts as three.
 */
export function textProse(text: string): number {
  let total = 0;
  for (const line of text.split("\n")) {
    let n = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 32 || (c >= 9 && c <= 13) || c === 160) continue;
      n += c >= 0x2e80 && c <= 0x9fff ? 3 : 1;
    }
    if (n >= MIN_LINE) total += n;
  }
  return total;
}

const MIN_LINE = 60;
