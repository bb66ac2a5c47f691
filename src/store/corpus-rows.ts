import type { CorpusDocumentRow } from "./types.ts";

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
