import type { CorpusPassage, Store } from "../../store/types.ts";
import { importHolds } from "./ranker.ts";
import type { CorpusDocHit, CorpusQuery } from "./ranking.ts";
import type { SearchTask } from "./search-messages.ts";
import { createSearchPool } from "./search-pool.ts";
import { type TaskRunner, taskRunner } from "./search-task.ts";

/**
 * The searches of a store's collections: ranking (ranker.ts) and a document's best passages,
 * on search threads when the store can be opened by another (search-pool.ts), else in place.
 * `signal`: the caller stops waiting (its run was cancelled or timed out); a search in a
 * thread is then stopped too.
 */
export interface CorpusSearcher {
  /** Documents best first, as Ranker.rank. */
  rank(query: CorpusQuery, collections: number[] | null, limit: number, signal?: AbortSignal): Promise<CorpusDocHit[]>;
  /** A document's passages that best match `words`, in their order (the store's bestPassages). */
  passages(documentId: number, words: string[], limit: number, signal?: AbortSignal): Promise<CorpusPassage[]>;
  /** As Ranker.holdDuringImport: searches may use an index view a moment old until released. */
  holdDuringImport(): () => void;
}

export function createSearcher(store: Store): CorpusSearcher {
  const imports = importHolds();
  let here: TaskRunner | null = null;
  const inPlace = () =>
    (here ??= taskRunner({
      index: store.corpusIndex,
      bestPassages: (id, words, limit) => store.corpus.bestPassages(id, words, limit),
    }));
  const source = store.corpusReaderSource;
  const pool = source ? createSearchPool({ source, fallback: inPlace }) : null;
  const run = (task: SearchTask, signal?: AbortSignal) => (pool ? pool.run(task, signal) : inPlace()(task));
  return {
    rank: async (query, collections, limit, signal) =>
      (await run({ type: "rank", query, collections, limit, held: imports.held }, signal)) as CorpusDocHit[],
    passages: async (documentId, words, limit, signal) =>
      (await run({ type: "passages", documentId, words, limit }, signal)) as CorpusPassage[],
    holdDuringImport: () => imports.hold(),
  };
}
