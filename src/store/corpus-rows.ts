import type { CollectionSummary, CorpusDocumentRow } from "./types.ts";

/** A document row as both backends select it (their columns mirror each other: README "PostgreSQL"). */
export interface DocRowRaw {
  id: number;
  collection: string;
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
  collection: r.collection,
  docId: r.doc_id,
  title: r.title,
  url: r.url,
  path: r.path,
  format: r.format,
  chars: r.chars,
  truncated: r.truncated === 1,
  addedAt: r.added_at,
});

/** A collection's summary row as both backends select it. */
export interface CollectionRowRaw {
  name: string;
  documents: number;
  passages: number;
  chars: number;
  created_at: string;
  updated_at: string | null;
}

export const toCollectionSummary = (r: CollectionRowRaw): CollectionSummary => ({
  name: r.name,
  documents: r.documents,
  passages: r.passages,
  chars: r.chars,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
