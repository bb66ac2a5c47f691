import type { FileFormat } from "../../corpus/import/formats.ts";
import type { CorpusDocumentInput, CorpusPutOutcome } from "../../store/types.ts";

/** One spooled file to import, as the queue hands it to the import worker. */
export interface ImportJob {
  /** The spooled file. */
  path: string;
  /** The name it was uploaded under: its doc_id (a JSONL file's records keep their own). */
  docId: string;
  format: FileFormat;
  /** Bytes a .jsonl.gz may expand to before it is refused as a gzip bomb. */
  gzipLimit: number;
  /** Characters kept per document (default: the importer's). */
  maxChars?: number;
}

/** A record the importer left out, or kept with a caveat. */
export interface JobProblem {
  line?: number;
  message: string;
  skipped: boolean;
}

/** How a job ended in the worker: its documents stored (`documents`) and what was left out, or why none was read. */
export type JobOutcome =
  | { type: "done"; documents: number; problems: JobProblem[] }
  | { type: "failed"; reason: string };

/** The queue to the worker: a job, or the answer to the worker's last `put`. */
export type ToWorker =
  | { type: "job"; job: ImportJob }
  | { type: "stored"; outcomes: CorpusPutOutcome[] }
  | { type: "refused"; reason: string };

/** The worker to the queue: documents to store (it waits for the answer), then how the job ended. */
export type FromWorker = { type: "put"; docs: CorpusDocumentInput[] } | JobOutcome;
