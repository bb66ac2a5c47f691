import { h } from "../dom.ts";

/**
 * Where a page sits: links to the pages above it, then the page itself (not a link), "›"
 * between two and never after the last; the separators are drawn by CSS, so a screen reader
 * reads a list of places instead of the arrows.
 */
export function crumbs(above: [label: string, href: string][], here: string): HTMLElement {
  return h(
    "nav",
    { class: "crumbs", "aria-label": "Breadcrumb" },
    h(
      "ol",
      {},
      ...above.map(([label, href]) => h("li", {}, h("a", { href, "data-link": true }, label))),
      h("li", {}, h("span", { "aria-current": "page" }, here)),
    ),
  );
}
