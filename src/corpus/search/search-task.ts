import type { CorpusIndex } from "../../store/corpus-index.ts";
import type { CorpusPassage } from "../../store/types.ts";
import { createRanker, type Ranker } from "./ranker.ts";
import type { CorpusDocHit } from "./ranking.ts";
import type { SearchTask } from "./search-messages.ts";

/** The reads a search makes, whichever thread makes them. */
export interface SearchReads {
  index: CorpusIndex;
  bestPassages(documentId: number, words: string[], limit: number): CorpusPassage[] | Promise<CorpusPassage[]>;
}

/** Runs search jobs over one connection's reads, with one ranker (its memory) for all of them. */
export type TaskRunner = (task: SearchTask) => Promise<CorpusDocHit[] | CorpusPassage[]>;

/** The one way a job is done: on the search thread (search-worker.ts) or, without one, in place. */
export function taskRunner(reads: SearchReads, ranker: Ranker = createRanker(reads.index)): TaskRunner {
  let release: (() => void) | null = null;
  return async (task) => {
    if (task.type === "passages") return [...(await reads.bestPassages(task.documentId, task.words, task.limit))];
    // The server's import hold, mirrored: held while the server holds it, let go otherwise.
    if (task.held && !release) release = ranker.holdDuringImport();
    if (!task.held && release) {
      release();
      release = null;
    }
    return await ranker.rank(task.query, task.collections, task.limit);
  };
}
