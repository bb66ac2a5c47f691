// Leaf of the store's types (types.ts re-exports the row): the port imports nothing of the store.
type Awaitable<T> = T | Promise<T>;

export interface CorpusDocumentRow {
  /** The store's own number for the document (search hits carry it). */
  id: number;
  /** The store's number for its collection (names are unique per owner only). */
  collectionId: number;
  collection: string;
  /** Its collection owner's email; null for a collection with no owner. */
  owner: string | null;
  docId: string;
  title: string;
  url: string | null;
  path: string | null;
  format: string;
  chars: number;
  truncated: boolean;
  addedAt: string;
}

/** Where a term occurs: documents (the store's ids) with its count in the title and in the body. */
export interface TermPostings {
  docs: number[];
  title: number[];
  body: number[];
}

/** A collection as the index knows it; `version` changes whenever its documents may have. */
export interface IndexedCollection {
  id: number;
  name: string;
  version: string;
}

/** Documents' lengths in index tokens, one entry per document, in the same order in each array. */
export interface DocumentLengths {
  ids: Int32Array;
  collection: Int32Array;
  title: Int32Array;
  body: Int32Array;
}

/**
 * The collections' full-text index as a ranker reads it (src/corpus/search ranks; the store
 * only reads). Every read is batched, so a backend a network away answers a pass of a search
 * in one round trip. Reads of documents take the collections to read from: a caller may only
 * be allowed some of them. Terms are the backend's own (its tokenizer, its stemming): what
 * `analyse` returns is what `postings` finds.
 */
export interface CorpusIndex {
  /** Every collection, with the versions the ranker's caches are kept by. */
  collections(): Awaitable<IndexedCollection[]>;
  /** The index's distinct terms of a text, in order of first appearance. */
  analyse(text: string): Awaitable<string[]>;
  /** Each term's postings within the given collections (empty postings for a term found nowhere). */
  postings(terms: string[], collections: number[]): Awaitable<Map<string, TermPostings>>;
  /** How many documents of the given collections hold each term (0 for none). */
  documentFrequencies(terms: string[], collections: number[]): Awaitable<Map<string, number>>;
  /** Title and body lengths of every document of the given collections. */
  lengths(collections: number[]): Awaitable<DocumentLengths>;
  /** Each document's terms with their counts, title and body together. */
  termCounts(documents: number[]): Awaitable<Map<number, Map<string, number>>>;
  /** The rows of documents by the store's ids (a document since removed is left out). */
  documents(ids: number[]): Awaitable<CorpusDocumentRow[]>;
}

/**
 * Where another thread can open the collections for reading (src/corpus/search/search-pool.ts):
 * a SQLite file or a PostgreSQL database. A store whose data only its own connection sees (an
 * in-memory SQLite database) has none, and is searched on the thread that holds it.
 */
export type CorpusReaderSource =
  | { backend: "sqlite"; path: string }
  | { backend: "postgres"; url: string; prepare: boolean };
