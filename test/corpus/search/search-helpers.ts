import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/open.ts";
import type { CollectionSummary, CorpusDocumentInput } from "../../../src/store/types.ts";

/** A plain-text document of one passage, as an import would put it. */
export const textDoc = (docId: string, title: string, body: string): CorpusDocumentInput => ({
  docId,
  title,
  url: null,
  path: null,
  format: "text",
  contentHash: String(Bun.hash(title + body)),
  truncated: false,
  passages: [body],
});

/** A fresh in-memory store with documents put in order: [docId, title, body]. */
export function storeWith(docs: [string, string, string][], collection = "default"): SqliteStore {
  const store = openSqliteStore(":memory:");
  putDocs(store, docs, collection);
  return store;
}

/** The unowned shared collection `name` of a SQLite store (synchronous there), made when missing. */
export function sqliteCollection(store: SqliteStore, name: string): CollectionSummary {
  const found = store.corpus.findCollection(null, name) as CollectionSummary | null;
  return found ?? (store.corpus.createCollection({ name, ownerId: null, visibility: "shared" }) as CollectionSummary);
}

export function putDocs(store: SqliteStore, docs: [string, string, string][], collection = "default") {
  store.corpus.put(
    sqliteCollection(store, collection).id,
    docs.map(([docId, title, body]) => textDoc(docId, title, body)),
  );
}

/** Filler documents on unrelated words, so that a test's words are rare enough to carry weight. */
export function filler(n: number): [string, string, string][] {
  return Array.from({ length: n }, (_, i) => [
    `f${i}`,
    `note ${i}`,
    `plain filler text number ${i} about weather and roads ${i % 7}`,
  ]);
}
