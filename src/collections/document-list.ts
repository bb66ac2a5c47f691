import type { CollectionStatus, DocumentItem } from "../contract/collections.ts";
import type { CollectionSummary, CorpusDocumentRow, Store } from "../store/types.ts";

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

/** The collection's documents by doc_id, each with its status. */
export async function listDocuments(store: Store, collection: CollectionSummary): Promise<DocumentItem[]> {
  return (await store.corpus.documents(collection.id)).map(item);
}

/** One stored document of the collection by its doc_id, or null. */
export async function storedDocument(
  store: Store,
  collection: CollectionSummary,
  docId: string,
): Promise<CorpusDocumentRow | null> {
  return (await store.corpus.documents(collection.id)).find((d) => d.docId === docId) ?? null;
}

/**
 * Each collection's status, by the store's id: `indexing` while any of its documents is
 * queued or being indexed, else `ready`. With documents only ever stored whole, every
 * collection in the store is ready.
 */
export function collectionStatuses(collections: CollectionSummary[]): Map<number, CollectionStatus> {
  return new Map(collections.map((c) => [c.id, "ready"]));
}

/** Removes one document of the collection; false when it has none of that doc_id. */
export async function removeDocument(store: Store, collection: CollectionSummary, docId: string): Promise<boolean> {
  return (await store.corpus.removeDocuments(collection.id, [docId])) > 0;
}
