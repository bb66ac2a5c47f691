import { linkDensity } from "./html-score.ts";

const BLOCK = new Set([
  "P",
  "DIV",
  "SECTION",
  "ARTICLE",
  "MAIN",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "LI",
  "UL",
  "OL",
  "DL",
  "DT",
  "DD",
  "TABLE",
  "TBODY",
  "THEAD",
  "TFOOT",
  "TR",
  "BLOCKQUOTE",
  "PRE",
  "FIGURE",
  "FIGCAPTION",
  "HR",
  "ADDRESS",
  "CAPTION",
  "DETAILS",
  "SUMMARY",
  "CENTER",
  "HEADER",
]);
// Blocks that, made mostly of links, point elsewhere: menus, "read next" boxes, and the
// "Read also: <a>another story</a>" paragraph set between an article's own paragraphs.
const LINK_BLOCKS = new Set(["UL", "OL", "DL", "TABLE", "DIV", "SECTION", "P"]);

/**
 * Plain text of a subtree with one line per block (paragraph, heading, list item, table
 * row, caption). Nested link lists — the "read next" boxes inside articles — are skipped.
 */
export function blockText(roots: Element[]): string {
  const lines: string[] = [];
  let buf = "";
  const flush = () => {
    const t = buf.replace(/[ \t\r\n\f\u00a0]+/g, " ").trim();
    if (t) lines.push(t);
    buf = "";
  };
  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      buf += node.nodeValue ?? "";
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.tagName;
    if (tag === "BR") {
      flush();
      return;
    }
    const block = BLOCK.has(tag);
    if (block && LINK_BLOCKS.has(tag)) {
      const len = (el.textContent ?? "").trim().length;
      if (len > 0 && linkDensity(el, len) > 0.6) return;
    }
    if (block) flush();
    if (tag === "TD" || tag === "TH") buf += " ";
    for (let c = el.firstChild; c; c = c.nextSibling) walk(c);
    if (tag === "TD" || tag === "TH") buf += " ";
    if (block) flush();
  };
  for (const r of roots) {
    walk(r);
    flush();
  }
  return lines.join("\n");
}
