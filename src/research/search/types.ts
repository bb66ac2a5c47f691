import type { SourceType } from "../types.ts";

/** One result from a search provider, before merging and ranking. */
export interface SearchHit {
  url: string;
  title: string;
  /** Short text shown by the provider (or the start of the abstract). */
  snippet: string;
  provider: string;
  type: SourceType;
  /** Full abstract for academic hits; used as the text when the page can't be read. */
  abstract?: string;
  published_at?: string;
  authors?: string[];
  venue?: string;
  doi?: string;
  /** Open-access PDF, when the database knows one. */
  pdf_url?: string;
  /** A document of the service's own collections: already read, never fetched (search/local.ts). */
  local?: LocalRef;
}

/** Where a local hit lives in the store. */
export interface LocalRef {
  collection: string;
  /** The store's number for the collection (names are unique per owner only). */
  collectionId: number;
  /** The collection owner's email; null for a collection with no owner. */
  owner: string | null;
  docId: string;
  /** The store's own number for the document, to ask for its passages. */
  documentId: number;
}

export interface SearchOptions {
  signal: AbortSignal;
  /** How many hits the caller wants at most. */
  limit: number;
  /** What the plan is after; web providers that know categories use it. */
  topic?: "general" | "news" | "science";
}

/** A search backend. One file per provider, built by a factory taking its settings. */
export interface SearchProvider {
  readonly name: string;
  readonly kind: SourceType;
  /** Resolves with hits, or throws SearchError; never hangs past the caller's signal. */
  search(query: string, opts: SearchOptions): Promise<SearchHit[]>;
}
