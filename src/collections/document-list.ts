import type { AuditScope } from "../auth/audit/audit.ts";
import {
  type CollectionStatus,
  DOCUMENT_LIST_PAGE,
  type DocumentItem,
  type DocumentList,
} from "../contract/collections.ts";
import type { CollectionRef, CorpusDocumentRow, Store, UploadRow } from "../store/types.ts";

/**
 * The documents of a collection as the Console shows them, with their status (README
 * "Collections for a team"), and their removal. This file is the one place that knows where
 * documents are: the store keeps whole documents only (each batch is one transaction, so a
 * document is there with all its passages or not at all), and every stored document is
 * `ready`: searched by the next run. Documents on their way in (an upload queue's `queued`,
 * `indexing` and `failed` rows) join the list, the statuses and the removal here, so every
 * route and the collection list see them alike.
 */

const item = (d: CorpusDocumentRow): DocumentItem => ({
  doc_id: d.docId,
  title: d.title,
  status: "ready",
  chars: d.chars,
  format: d.format,
  added_at: d.addedAt,
});

/**
 * A file on its way in: titled by its name until read, no characters yet. A stored document it
 * would replace keeps its title and size here, and stays searched until the new one is stored.
 */
const inFlightItem = (u: UploadRow, stored: DocumentItem | undefined): DocumentItem => ({
  doc_id: u.docId,
  title: stored?.title ?? u.docId,
  status: u.status,
  ...(u.error !== null && { error: u.error }),
  chars: stored?.chars ?? 0,
});

/**
 * One page of the collection's documents by doc_id, from `from` on, each with its status: one
 * entry per doc_id, a file on its way in (the latest uploaded of that name) shown over the
 * stored document it replaces. Paged because a shared collection of 100,000 documents listed
 * whole was 17 MB and ~200 ms of the server's thread per call: a page reads and builds at most
 * DOCUMENT_LIST_PAGE entries, whatever the collection holds.
 */
export async function listDocuments(store: Store, collection: CollectionRef, from: string): Promise<DocumentList> {
  // One doc_id more than the page says whether any follow, and which one `next` names.
  const ids = await store.corpus.documentIds(collection.id, from, DOCUMENT_LIST_PAGE + 1);
  const page = ids.slice(0, DOCUMENT_LIST_PAGE);
  const next = ids[DOCUMENT_LIST_PAGE] ?? null;
  if (!page.length) return { documents: [], next };
  const stored = new Map((await store.corpus.documents(collection.id, page)).map((d) => [d.docId, item(d)]));
  const byId = new Map(stored);
  // Oldest first: the later of two rows of one name (one indexing, one queued behind it) is shown.
  for (const u of await store.uploads.inFlight(collection.id, page))
    byId.set(u.docId, inFlightItem(u, stored.get(u.docId)));
  // The database's order, in which `from` pages.
  return { documents: page.flatMap((id) => byId.get(id) ?? []), next };
}

/**
 * Each collection's status, by the store's id: `indexing` while any of its files is queued or
 * being indexed, else `ready` (a failed file does not keep it indexing).
 */
export async function collectionStatuses(
  store: Store,
  collections: CollectionRef[],
): Promise<Map<number, CollectionStatus>> {
  const busy = new Set(await store.uploads.busy(collections.map((c) => c.id)));
  return new Map(collections.map((c) => [c.id, busy.has(c.id) ? "indexing" : "ready"]));
}

/**
 * Removes one document of the collection, stored or on its way in (queued, indexing, failed);
 * false when it has none of that doc_id. A file being indexed is cancelled: its documents go
 * when its import ends (src/collections/import/import-one.ts); its spooled file is swept.
 */
export async function removeDocument(
  store: Store,
  collection: CollectionRef,
  docId: string,
  audit?: AuditScope,
): Promise<boolean> {
  const note = audit?.note("document_deleted", { target: `${collection.name}/${docId}` });
  // The change recorded once, with whichever removal happened first: a file on its way in, else the stored document.
  const rows = await store.uploads.remove(collection.id, docId, note);
  const stored = await store.corpus.removeDocuments(collection.id, [docId], rows.length ? undefined : note);
  audit?.logged(note, stored > 0 || rows.length > 0);
  return stored > 0 || rows.length > 0;
}
