import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/open.ts";
import type { CorpusDocumentInput } from "../../src/store/types.ts";

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

export function putDocs(store: SqliteStore, docs: [string, string, string][], collection = "default") {
  store.corpus.put(
    collection,
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
