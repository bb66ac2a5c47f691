import { type CorpusSearchOptions, searchCorpus } from "../../src/corpus/search/search-corpus.ts";
import type { CollectionSummary, CorpusDocumentInput, Store } from "../../src/store/types.ts";

/** The unowned shared collection `name` (as collections made before owners are), made when missing. */
export async function sharedCollection(store: Store, name: string): Promise<CollectionSummary> {
  const found = await store.corpus.findCollection(null, name);
  if (found) return found;
  return (await store.corpus.createCollection({ name, ownerId: null, visibility: "shared" }))!;
}

/** Puts documents into the unowned shared collection `name`. */
export async function putInto(store: Store, name: string, docs: CorpusDocumentInput[]) {
  return await store.corpus.put((await sharedCollection(store, name)).id, docs);
}

/** The documents of the unowned collection `name` (none when there is no such collection). */
export async function docsOf(store: Store, name: string) {
  const c = await store.corpus.findCollection(null, name);
  return c ? await store.corpus.documents(c.id) : [];
}

/** searchCorpus over one unowned collection by name, or over every collection. */
export async function searchIn(
  store: Store,
  text: string,
  o: Omit<CorpusSearchOptions, "collections"> & { collection?: string },
) {
  const { collection, ...rest } = o;
  const c = collection === undefined ? null : await store.corpus.findCollection(null, collection);
  return await searchCorpus(store, text, { ...rest, collections: collection === undefined ? null : c ? [c.id] : [] });
}
