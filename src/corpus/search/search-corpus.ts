import type { CorpusIndex } from "../../store/corpus-index.ts";
import type { Store } from "../../store/types.ts";
import { STOPWORDS } from "../../text/stopwords.ts";
import type { CorpusDocHit, CorpusQuery, CorpusRanking } from "./ranking.ts";
import { type CorpusSearcher, createSearcher } from "./searcher.ts";

/**
 * The ranking every search uses, chosen on SciFact's 809 training claims with 2-fold
 * cross-validation (test/bench/corpus.ts; README "Searching collections"): BM25F with the
 * usual k1 and b, a title word counting twice a body word, and RM3-style feedback from
 * the top 5 documents, 40 expansion words mixed in at 0.3.
 */
export const RANKING: CorpusRanking = {
  k1: 1.2,
  b: 0.75,
  titleWeight: 2,
  feedback: { docs: 5, terms: 40, weight: 0.3 },
};

/** What a search of the collections asks. */
export interface CorpusSearchOptions {
  /** The collections to search (the store's ids, as `store.corpus.readable` gives them); every one when null. */
  collections: number[] | null;
  limit: number;
  /** Another ranking than RANKING (the benchmark compares them). */
  ranking?: CorpusRanking;
  /** The caller stops waiting (its run was cancelled or timed out): the search stops too. */
  signal?: AbortSignal;
}

/** A question as the store searches it: its words without stop words (all of them if nothing else is left). */
export function corpusQuery(text: string, ranking: CorpusRanking = RANKING): CorpusQuery {
  const all = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const content = all.filter((w) => !STOPWORDS.has(w));
  return { words: content.length ? content : all, ranking };
}

/**
 * The one search of the collections, behind the CLI's `corpus search`, the batch search
 * and the `local` provider of runs: documents best first.
 */
export async function searchCorpus(store: Store, text: string, o: CorpusSearchOptions): Promise<CorpusDocHit[]> {
  return await searcherOf(store).rank(corpusQuery(text, o.ranking), o.collections, o.limit, o.signal);
}

// One searcher per store, kept as long as the store is: its threads' caches are the instance's,
// without every entry point having to hold one.
const searchers = new WeakMap<CorpusIndex, CorpusSearcher>();

/** The searcher of a store's collections (searcher.ts). */
export function searcherOf(store: Store): CorpusSearcher {
  let searcher = searchers.get(store.corpusIndex);
  if (!searcher) {
    searcher = createSearcher(store);
    searchers.set(store.corpusIndex, searcher);
  }
  return searcher;
}
