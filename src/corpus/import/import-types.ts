import type { PdfText } from "../../text/pdf.ts";

/** How far an import has come, reported at most a few times a second (README "Importing documents"). */
export interface ImportProgress {
  /** Documents read so far (added, replaced or unchanged). */
  documents: number;
  files: number;
  filesTotal: number;
  /** Documents per second since the start. */
  rate: number;
  /** Estimated from bytes within a JSONL file and from the file count across a folder; null until known. */
  secondsLeft: number | null;
  /** The file being read. */
  current: string;
}

/** Something the import could not take as it was; the import goes on. */
export interface ImportProblem {
  /** The file (as reached from the path given). */
  path: string;
  /** 1-based line of a JSONL file, when the problem is one record. */
  line?: number;
  message: string;
  /** True when the file or record was left out; false when it was imported with a caveat (cut, re-decoded). */
  skipped: boolean;
}

export interface ImportSummary {
  collection: string;
  added: number;
  replaced: number;
  unchanged: number;
  /** Files and JSONL records left out (each reported through onProblem). */
  skipped: number;
  /** Paths given that yielded no document at all (missing, empty folder, every file unreadable). */
  failedPaths: string[];
  /** True when the signal stopped it: the documents written so far are complete, the rest were not read. */
  interrupted: boolean;
  seconds: number;
}

export interface ImportOptions {
  /** The collection to import into (made beforehand: see README "Collections for a team" for who owns it). */
  collection: { id: number; name: string };
  onProgress?: (p: ImportProgress) => void;
  onProblem?: (p: ImportProblem) => void;
  signal?: AbortSignal;
  /** Follow links that lead out of a folder given (corpus add --follow-links); default: skip them. */
  followLinks?: boolean;
  /** Characters kept per document (default MAX_DOC_CHARS); tests lower it. */
  maxChars?: number;
  /** The clock of the progress reports, in ms (default performance.now); tests move it by hand. */
  now?: () => number;
  /** Reads a PDF's text; default: on this thread. A PdfTooLarge thrown skips the file with its reason. */
  readPdf?: ReadPdf;
}

/** `corpus add` passes one on a worker a memory watchdog may stop (docs/decisions/0098-pdf-parse-watchdog.md). */
export type ReadPdf = (bytes: Uint8Array, maxPages: number, signal?: AbortSignal) => Promise<PdfText>;

/** One document as a reader found it, before it is split and hashed. */
export interface ReadDocument {
  docId: string;
  title: string;
  text: string;
  url: string | null;
  path: string;
  format: "pdf" | "html" | "markdown" | "text" | "jsonl";
  /** SHA-256 (hex) of the bytes read for it. */
  contentHash: string;
  truncated: boolean;
  /** 1-based line in a JSONL file. */
  line?: number;
}
