import { DOCUMENT_PAGE_PASSAGES, type DocumentPage } from "../contract/collections.ts";
import { AppError } from "../contract/errors.ts";
import type { CollectionRef, Store } from "../store/types.ts";

/**
 * A document's page in the web app (README "Collections for a team"): where a local source
 * links, instead of a path on the server. Its text comes as the passages runs search, at
 * most DOCUMENT_PAGE_PASSAGES at a time (a kept document may hold up to two million
 * characters: one answer stays around a hundred kilobytes); `next` asks for the following
 * ones.
 */

/** `?from=`: a passage number, 0 when absent. */
export function fromParam(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 0;
  if (!/^\d{1,9}$/.test(raw)) throw new AppError("invalid_request", "from must be a passage number (0 or more)");
  return Number(raw);
}

/** The document `docId` of a readable collection from passage `from` on, or 404 document_not_found. */
export async function documentPage(
  store: Store,
  collection: CollectionRef,
  docId: string,
  from: number,
): Promise<DocumentPage> {
  const doc = await store.corpus.document(collection.id, docId);
  if (!doc) throw new AppError("document_not_found", `no document ${JSON.stringify(docId)} in this collection`);
  // The store reads a document's passages from its first; one more than the page tells whether any follow.
  const read = await store.corpus.bestPassages(doc.id, [], from + DOCUMENT_PAGE_PASSAGES + 1);
  const after = read.filter((p) => p.seq >= from);
  const page = after.slice(0, DOCUMENT_PAGE_PASSAGES);
  return {
    doc_id: doc.docId,
    title: doc.title,
    collection: collection.name,
    owner: collection.owner,
    url: doc.url,
    format: doc.format,
    chars: doc.chars,
    truncated: doc.truncated,
    passages: page.map((p) => ({ seq: p.seq, text: p.text })),
    next: after.length > page.length ? after[page.length]!.seq : null,
  };
}
