import type { DocumentItem, DocumentList } from "../../../contract/collections.ts";
import { api } from "../api.ts";
import { type CollectionAddress, collectionApi } from "../doc-links.ts";
import { firstPages } from "../first-pages.ts";

/**
 * A collection's documents as the page shows them: the server answers a page at a time
 * (`next` is the following page's `?from=`), and the table holds the pages asked for so far —
 * the first, then one more each time "More documents" is pressed — so a collection of 100,000
 * documents costs what is looked at, not its whole size.
 */
export interface DocumentPages {
  /** The documents of the pages shown, read again (statuses change while files are indexed). */
  read(): Promise<DocumentItem[]>;
  /** Adds the following page to those shown, and reads them all. */
  more(): Promise<DocumentItem[]>;
  /** Whether a page follows the last one read. */
  hasMore(): boolean;
  /** One document by doc_id, wherever its page is; null when the collection has none of that name. */
  find(docId: string): Promise<DocumentItem | null>;
}

export function documentPages(at: CollectionAddress): DocumentPages {
  const page = (from: string) => api<DocumentList>("GET", collectionApi(at, "/documents", from ? { from } : {}));
  let shown = 1;
  let next: string | null = null;
  const read = async () => {
    const first = await firstPages(async (from) => {
      const p = await page(from ?? "");
      return { items: p.documents, next: p.next };
    }, shown);
    next = first.next;
    return first.items;
  };
  return {
    read,
    more() {
      shown++;
      return read();
    },
    hasMore: () => next !== null,
    // A page from the doc_id itself starts with it when the collection lists it.
    find: async (docId) => (await page(docId)).documents.find((d) => d.doc_id === docId) ?? null,
  };
}
