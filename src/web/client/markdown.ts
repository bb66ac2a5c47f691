import { INLINE_TOKEN as INLINE, sentenceRanges } from "./claims/claim-split.ts";
import { h } from "./dom.ts";

/** Only http(s) links: a javascript: or data: URL from a model never becomes clickable. */
function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** Inline Markdown to DOM nodes; text stays text (no HTML is ever parsed). */
export function inline(text: string): Node[] {
  const out: Node[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index! > last) out.push(document.createTextNode(text.slice(last, m.index)));
    const t = m[0];
    if (m[1]) out.push(h("code", {}, t.slice(1, -1)));
    else if (m[2]) out.push(h("strong", {}, ...inline(t.slice(2, -2))));
    else if (m[3]) out.push(h("em", {}, ...inline(t.slice(1, -1))));
    else if (m[4])
      out.push(h("a", { class: "cite", href: `#src-${t.slice(1, -1)}`, "aria-label": `source ${t.slice(2, -1)}` }, t));
    // An escaped character is that character: quoted text's "\[label\](url)" is no link.
    else if (!m[5]) out.push(document.createTextNode(t.slice(1)));
    else {
      const lm = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(t)!;
      const href = safeHref(lm[2]!);
      out.push(
        href
          ? h("a", { href, rel: "noopener noreferrer", target: "_blank" }, ...inline(lm[1]!))
          : document.createTextNode(lm[1]!),
      );
    }
    last = m.index! + t.length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/**
 * A block's inline Markdown with each sentence in its own `span.claim`, its raw text in
 * `data-claim`: what the answer's evidence is matched against (claims/claim-match.ts).
 */
function claims(text: string): Node[] {
  const out: Node[] = [];
  let last = 0;
  for (const [start, end] of sentenceRanges(text)) {
    if (start > last) out.push(document.createTextNode(text.slice(last, start)));
    const raw = text.slice(start, end);
    out.push(h("span", { class: "claim", "data-claim": raw }, ...inline(raw)));
    last = end;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/**
 * Markdown to a DocumentFragment: headings, paragraphs, lists, quotes, code blocks. A plain
 * line right after a list item's continues it (a soft wrap), as the claim check reads it
 * (src/research/write/verify/answer-blocks.ts): one sentence, one claim, on both sides.
 */
export function renderMarkdown(md: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  const lines = md.replace(/\r\n/g, "\n").split("\n");
  let para: string[] = [];
  let list: { el: HTMLElement; ordered: boolean } | null = null;
  let item: string[] | null = null;
  const flushPara = () => {
    if (para.length) frag.append(h("p", {}, ...claims(para.join(" "))));
    para = [];
  };
  const flushItem = () => {
    if (item && list) list.el.append(h("li", {}, ...claims(item.join(" "))));
    item = null;
  };
  const flushList = () => {
    flushItem();
    if (list) frag.append(list.el);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^```/.test(line)) {
      flushPara();
      flushList();
      const code: string[] = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]!); i++) code.push(lines[i]!);
      frag.append(h("pre", {}, h("code", {}, code.join("\n"))));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (heading) {
      flushPara();
      flushList();
      frag.append(h(`h${Math.min(6, heading[1]!.length + 2)}` as "h3", {}, ...inline(heading[2]!)));
    } else if (bullet || numbered) {
      flushPara();
      flushItem();
      const ordered = !!numbered;
      if (!list || list.ordered !== ordered) {
        flushList();
        list = { el: h(ordered ? "ol" : "ul"), ordered };
      }
      item = [(bullet ?? numbered)![1]!];
    } else if (/^>\s?/.test(line)) {
      flushPara();
      flushList();
      frag.append(h("blockquote", {}, ...claims(line.replace(/^>\s?/, ""))));
    } else if (!line.trim()) {
      flushPara();
      flushList();
    } else if (item) {
      item.push(line.trim());
    } else {
      flushList();
      para.push(line.trim());
    }
  }
  flushPara();
  flushList();
  return frag;
}
