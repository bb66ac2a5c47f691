import type { CorpusReaderSource } from "../../store/corpus-index.ts";
import type { CorpusPassage } from "../../store/types.ts";
import type { CorpusDocHit, CorpusQuery } from "./ranking.ts";

/** A job of the search thread (search-worker.ts). */
export type SearchTask =
  | {
      type: "rank";
      query: CorpusQuery;
      collections: number[] | null;
      limit: number;
      /** The server is importing: a view of the index up to IMPORT_STALE_MS old may serve (Ranker.holdDuringImport). */
      held: boolean;
    }
  | { type: "passages"; documentId: number; words: string[]; limit: number };

/** What the search thread is sent: where to read, once, then one job at a time. */
export type SearchJob = { type: "open"; source: CorpusReaderSource } | (SearchTask & { id: number });

/** What the search thread answers: `ready` once its connection is open, then each job's outcome. */
export type SearchReply =
  | { type: "ready" }
  | { type: "done"; id: number; ok: true; value: CorpusDocHit[] | CorpusPassage[] }
  | { type: "done"; id: number; ok: false; message: string };
