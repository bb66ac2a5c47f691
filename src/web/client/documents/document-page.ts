import type { DocumentPage } from "../../../contract/collections.ts";
import { ApiError, api, type Me } from "../api.ts";
import { type CollectionAddress, collectionHref, documentApi, quoteOf } from "../doc-links.ts";
import { h, mount } from "../dom.ts";
import { findQuote, flat, type QuoteSpot } from "../quote-mark.ts";
import { crumbs } from "./crumbs.ts";
import { ownerLabel } from "./labels.ts";

type Passage = DocumentPage["passages"][number];

/**
 * The text shown of a passage: the first begins with the document's title, which the page's
 * heading already shows. Quotes are found in the whole text, so the mark is moved with it.
 */
function shown(p: Passage, title: string): { text: string; cut: number } {
  const t = flat(p.text);
  const head = flat(title);
  const cut = p.seq === 0 && head && t.startsWith(`${head} `) ? head.length + 1 : 0;
  return { text: t.slice(cut), cut };
}

/** One passage as a paragraph; the quoted one with the quote inside a <mark>. */
function passage(p: Passage, title: string, i: number, spot: QuoteSpot | null): HTMLElement {
  const { text: t, cut } = shown(p, title);
  if (spot?.index !== i) return h("p", { class: "passage" }, t);
  const start = Math.max(0, spot.start - cut);
  const end = Math.max(start, spot.end - cut);
  if (spot?.index !== i) return h("p", { class: "passage" }, t);
  return h("p", { class: "passage quoted" }, t.slice(0, start), h("mark", {}, t.slice(start, end)), t.slice(end));
}

function missing(e: unknown): void {
  const ambiguous = e instanceof ApiError && e.code === "collection_ambiguous";
  mount(
    h("h1", {}, "Document not found"),
    h(
      "p",
      {},
      ambiguous
        ? "Several accounts share a collection of this name, and this link does not say whose."
        : "There is no such document in a collection you can read.",
    ),
    h("p", {}, h("a", { href: "/documents", "data-link": true }, "All collections")),
  );
}

/**
 * A document of a collection the caller may read: its title, collection and owner, and its
 * passages, the one an answer quoted (the address's #quote=) marked and scrolled to. The API
 * gives passages a page at a time: pages are read on until the quote is found verbatim.
 */
export async function documentPage(me: Me, at: CollectionAddress, docId: string): Promise<void> {
  const read = (from: number) =>
    api<DocumentPage>("GET", documentApi({ ...at, docId }, from ? { from: String(from) } : {}));
  let doc: DocumentPage;
  try {
    doc = await read(0);
  } catch (e) {
    return missing(e);
  }
  const passages = [...doc.passages];
  let next = doc.next;
  const quote = quoteOf(location.hash);
  const spotIn = () =>
    quote
      ? findQuote(
          passages.map((p) => p.text),
          quote,
        )
      : null;
  let spot = spotIn();
  while (quote && !spot?.exact && next !== null) {
    const more = await read(next);
    passages.push(...more.passages);
    next = more.next;
    spot = spotIn();
  }

  const mine = doc.owner !== null && doc.owner.toLowerCase() === me.email.toLowerCase();
  const back = collectionHref({ name: doc.collection, owner: mine ? null : (doc.owner ?? "") });
  const list = h("article", { class: "passages" }, ...passages.map((p, i) => passage(p, doc.title, i, spot)));
  const moreButton = h("button", { type: "button", class: "secondary" }, "Show more passages");
  moreButton.addEventListener("click", async () => {
    if (next === null) return;
    moreButton.disabled = true;
    const more = await read(next);
    list.append(...more.passages.map((p) => passage(p, doc.title, -1, null)));
    next = more.next;
    moreButton.disabled = false;
    if (next === null) moreButton.remove();
  });
  mount(
    crumbs(
      [
        ["Documents", "/documents"],
        [doc.collection, back],
      ],
      doc.title || doc.doc_id,
    ),
    h("h1", {}, doc.title || doc.doc_id),
    h(
      "p",
      { class: "muted" },
      "Collection ",
      h("a", { href: back, "data-link": true }, doc.collection),
      ` · owner: ${ownerLabel({ mine, owner: doc.owner })} · `,
      h("code", {}, doc.doc_id),
      doc.truncated ? " · only its beginning was kept" : "",
    ),
    quote && !spot ? h("p", { class: "note" }, "The quoted passage is no longer in this document.") : null,
    list,
    next === null ? null : moreButton,
  );
  // After the router focuses <main> (which scrolls to it): the quote is what the reader came for.
  requestAnimationFrame(() => document.querySelector(".passage.quoted")?.scrollIntoView({ block: "center" }));
}
