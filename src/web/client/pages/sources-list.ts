import type { Me } from "../api.ts";
import { quoteHref } from "../claims/quote-links.ts";
import type { CheckedSource as Source } from "../claims/show-evidence.ts";
import { sourceQuotes } from "../claims/verification-note.ts";
import { documentHref } from "../doc-links.ts";
import { h, hostOf } from "../dom.ts";

/**
 * A document of the service's own collections: linked to its page in the app (title,
 * collection, the passage the answer quoted marked), never to its `local:` reference, which
 * leads nowhere in a browser, nor to its own URL, which may be a path on the server or an
 * intranet address. The owner goes in the link only for someone else's collection.
 */
function localItem(s: Source, me: Me): HTMLElement {
  const head = h("strong", {}, `[${s.id}] `);
  // An earlier run's source whose collection this account can no longer read: a placeholder.
  if (s.withheld)
    return h(
      "li",
      { id: `src-${s.id}`, class: "local withheld" },
      head,
      h("span", { class: "title" }, s.title),
      h("span", { class: "muted" }, ` — ${s.snippet}`),
    );
  // "" names the operator's collection (no owner), which the caller's own of that name would otherwise shadow.
  const owner = s.owner === null ? "" : s.owner && s.owner.toLowerCase() !== me.email.toLowerCase() ? s.owner : null;
  // A run recorded before sources named their collection has nothing to link to.
  const doc = s.collection && s.doc_id ? { name: s.collection, owner, docId: s.doc_id } : null;
  const href = doc ? documentHref(doc, s.snippet) : null;
  return h(
    "li",
    { id: `src-${s.id}`, class: "local" },
    head,
    href ? h("a", { href, "data-link": true }, s.title) : h("span", { class: "title" }, s.title),
    h(
      "span",
      { class: "muted" },
      ` — ${s.collection ?? "collection"} · `,
      h("code", {}, s.doc_id ?? s.url),
      owner ? ` · ${owner}` : "",
      " · local",
    ),
    sourceQuotes(s.evidence, (q) => (doc ? documentHref(doc, q) : null), false),
  );
}

/** A web page or paper: its title links out, in a new tab, with no referrer. */
function webItem(s: Source): HTMLElement {
  return h(
    "li",
    { id: `src-${s.id}` },
    h("strong", {}, `[${s.id}] `),
    h("a", { href: /^https?:/.test(s.url) ? s.url : "#", rel: "noopener noreferrer", target: "_blank" }, s.title),
    h(
      "span",
      { class: "muted" },
      ` — ${hostOf(s.url)} · ${s.type}${s.venue ? ` · ${s.venue}` : ""}${s.published_at ? ` · ${s.published_at}` : ""}`,
    ),
    sourceQuotes(s.evidence, (q) => quoteHref(s.url, q), true),
  );
}

/** An answer's sources, each with the id its [S1] markers jump to, and the quotes it gave the answer. */
export function sourcesList(sources: Source[], me: Me): HTMLElement {
  return h("ol", { class: "sources" }, ...sources.map((s) => (s.type === "local" ? localItem(s, me) : webItem(s))));
}
