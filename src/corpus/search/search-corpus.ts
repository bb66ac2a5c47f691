import { STOPWORDS } from "../../research/rank/stopwords.ts";
import type { CorpusDocHit, CorpusQuery, Store } from "../../store/types.ts";

/** What a search of the collections asks. */
export interface CorpusSearchOptions {
  /** One collection; all of them when unset. */
  collection?: string;
  limit: number;
}

/** A question as the store searches it: its words without stop words (all of them if nothing else is left). */
export function corpusQuery(text: string): CorpusQuery {
  const all = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const content = all.filter((w) => !STOPWORDS.has(w));
  return { words: content.length ? content : all };
}

/**
 * The one search of the collections, behind the CLI's `corpus search`, the batch search
 * and the `local` provider of runs: documents best first.
 */
export async function searchCorpus(store: Store, text: string, o: CorpusSearchOptions): Promise<CorpusDocHit[]> {
  return await store.corpus.search(corpusQuery(text), o);
}
