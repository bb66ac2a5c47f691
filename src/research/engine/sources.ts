import type { ReadResult } from "../read/read-all.ts";
import type { RankedHit } from "../search/merge.ts";
import type { Source } from "../types.ts";

/** What the reading stage yields for ranking: a usable text per hit. */
export interface ReadableDoc {
  key: string;
  title: string;
  text: string;
  hit: RankedHit;
  via: "page" | "abstract";
}

export function usableDocs(results: ReadResult<RankedHit>[]): ReadableDoc[] {
  const out: ReadableDoc[] = [];
  results.forEach((r, i) => {
    if (r.used === "page" && r.doc) {
      // An academic page that yielded little beats nothing, but its abstract is better text.
      const text = r.hit.abstract && r.doc.text.length < r.hit.abstract.length ? r.hit.abstract : r.doc.text;
      out.push({
        key: String(i),
        title: r.hit.title || r.doc.title,
        // The title a block of its own (src/text/text-blocks.ts): never joined to the first line.
        text: `${r.hit.title}\n\n${text}`,
        hit: r.hit,
        via: "page",
      });
    } else if (r.used === "abstract" && r.hit.abstract) {
      out.push({
        key: String(i),
        title: r.hit.title,
        text: `${r.hit.title}\n\n${r.hit.abstract}`,
        hit: r.hit,
        via: "abstract",
      });
    }
  });
  return out;
}

/** The client-facing source object for a chosen document (README "The API"). */
export function toSource(id: string, d: ReadableDoc, passages: string[], published?: string): Source {
  const h = d.hit;
  const snippet = (h.snippet || passages[0] || "").slice(0, 400);
  const s: Source = {
    id,
    title: d.title || h.url,
    url: h.url,
    type: h.type,
    provider: h.provider,
    snippet,
    read: d.via,
  };
  const date = h.published_at ?? published;
  if (date) s.published_at = date;
  if (h.authors?.length) s.authors = h.authors;
  if (h.venue) s.venue = h.venue;
  if (h.doi) s.doi = h.doi;
  if (h.local) {
    s.collection = h.local.collection;
    s.doc_id = h.local.docId;
    s.owner = h.local.owner;
    s.collection_id = h.local.collectionId;
  }
  return s;
}
