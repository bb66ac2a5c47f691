/** The Console's collection payloads as the pages read them. */
export type Visibility = "private" | "shared";
export interface Collection {
  name: string;
  visibility: Visibility;
  owner: string | null;
  mine: boolean;
  documents: number;
  bytes: number;
}
export type DocumentStatus = "queued" | "indexing" | "ready" | "failed";
export interface DocumentItem {
  doc_id: string;
  title: string;
  status: DocumentStatus;
  error?: string;
  chars: number;
}
export interface DocumentPage {
  doc_id: string;
  title: string;
  collection: string;
  owner: string | null;
  truncated: boolean;
  passages: { seq: number; text: string }[];
  next: number | null;
}
