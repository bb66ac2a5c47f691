import type { CollectionRef, CollectionSummary, CorpusDocumentRow, Visibility } from "./types.ts";

/** A document row as both backends select it (their columns mirror each other: README "PostgreSQL"). */
export interface DocRowRaw {
  id: number;
  collection_id: number;
  collection: string;
  owner: string | null;
  doc_id: string;
  title: string;
  url: string | null;
  path: string | null;
  format: string;
  chars: number;
  truncated: number;
  added_at: string;
}

export const toDocumentRow = (r: DocRowRaw): CorpusDocumentRow => ({
  id: r.id,
  collectionId: r.collection_id,
  collection: r.collection,
  owner: r.owner,
  docId: r.doc_id,
  title: r.title,
  url: r.url,
  path: r.path,
  format: r.format,
  chars: r.chars,
  truncated: r.truncated === 1,
  addedAt: r.added_at,
});

/** A collection's summary row as both backends select it (COLLECTION_SELECT below). */
export interface CollectionRowRaw {
  id: number;
  name: string;
  owner_id: string | null;
  owner: string | null;
  visibility: Visibility;
  documents: number;
  passages: number;
  chars: number;
  bytes: number;
  created_at: string;
  updated_at: string | null;
}

/**
 * The summary's columns over `corpus_collections c`, the same SQL on both backends (the
 * integer casts are PostgreSQL's count and sum types; SQLite reads them as integers anyway).
 */
export const COLLECTION_SELECT = `SELECT c.id, c.name, c.owner_id, a.email AS owner, c.visibility, c.created_at,
    (SELECT count(*) FROM corpus_documents d WHERE d.collection_id = c.id) AS documents,
    (SELECT count(*) FROM corpus_passages p JOIN corpus_documents d ON d.id = p.document_id WHERE d.collection_id = c.id) AS passages,
    (SELECT coalesce(sum(chars), 0) FROM corpus_documents d WHERE d.collection_id = c.id) AS chars,
    (SELECT coalesce(sum(bytes), 0) FROM corpus_documents d WHERE d.collection_id = c.id) AS bytes,
    (SELECT max(added_at) FROM corpus_documents d WHERE d.collection_id = c.id) AS updated_at
  FROM corpus_collections c LEFT JOIN accounts a ON a.id = c.owner_id`;

/**
 * A collection's identity without its counts (CollectionRef), the same SQL on both backends: the
 * counts above read every document and passage of the collection, which a route that only
 * finds the collection (100,000 documents: ~175 ms of the server's thread) must not pay.
 */
export const COLLECTION_REF_SELECT = `SELECT c.id, c.name, c.owner_id, a.email AS owner, c.visibility, c.created_at
  FROM corpus_collections c LEFT JOIN accounts a ON a.id = c.owner_id`;

export type CollectionRefRaw = Pick<
  CollectionRowRaw,
  "id" | "name" | "owner_id" | "owner" | "visibility" | "created_at"
>;

export const toCollectionRef = (r: CollectionRefRaw): CollectionRef => ({
  id: Number(r.id),
  name: r.name,
  ownerId: r.owner_id,
  owner: r.owner,
  visibility: r.visibility,
  createdAt: r.created_at,
});

export const toCollectionSummary = (r: CollectionRowRaw): CollectionSummary => ({
  ...toCollectionRef(r),
  documents: Number(r.documents),
  passages: Number(r.passages),
  chars: Number(r.chars),
  bytes: Number(r.bytes),
  updatedAt: r.updated_at,
});

/** UTF-8 bytes of a document's passages: what the storage allowance counts. */
export const passageBytes = (passages: string[]): number =>
  passages.reduce((n, p) => n + Buffer.byteLength(p, "utf8"), 0);
