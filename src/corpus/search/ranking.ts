import type { CorpusDocumentRow } from "../../store/types.ts";

/**
 * How documents are ranked (search-corpus.ts holds the chosen values): BM25F over title and
 * body, optionally with pseudo-relevance feedback.
 */
export interface CorpusRanking {
  /** BM25 term-frequency saturation. */
  k1: number;
  /** BM25 length normalisation, the same for title and body. */
  b: number;
  /** How much a word in the title counts against one in the body. */
  titleWeight: number;
  /** RM3-style expansion from the first pass's top `docs` documents: `terms` words mixed in at `weight`; null for none. */
  feedback: { docs: number; terms: number; weight: number } | null;
}

/**
 * A search in backend-neutral terms: the store's index turns the words into its own terms
 * (its tokenizer, its stemming) and the ranker scores them with the given parameters.
 */
export interface CorpusQuery {
  /** Words as the user wrote them (lower-cased, no syntax); a document matches any of them. A repeated word counts once. */
  words: string[];
  ranking: CorpusRanking;
}

export interface CorpusDocHit extends CorpusDocumentRow {
  /** Higher is better; comparable within one search only. */
  score: number;
}
