import type { TermPostings } from "../../store/corpus-index.ts";

/** Postings (document entries, and one per remembered term) kept in memory at most: about 40 MB. */
const POSTINGS_CACHED = 2_000_000;

/**
 * Recent postings, one entry per collection and term (postingsKey), least recently used first,
 * as a ranker keeps them until the index changes (index-snapshot.ts): reading them is most of
 * a search's time. Kept per collection so that a search finds remembered only what its own
 * collections hold, never what another's search read.
 */
export interface PostingsMemory {
  postings: Map<string, TermPostings>;
  entries: number;
}

/** The key of a collection's postings of a term. */
export const postingsKey = (collection: number, term: string) => `${collection}:${term}`;

// An empty entry still costs its key: counted as one, so many absent terms cannot grow the map unbounded.
const cost = (p: TermPostings) => p.docs.length + 1;

/** Remembers postings, forgetting the least recently used past the cap. */
export function rememberPostings(m: PostingsMemory, key: string, p: TermPostings): void {
  const old = m.postings.get(key);
  if (old) {
    m.postings.delete(key);
    m.entries -= cost(old);
  }
  m.postings.set(key, p);
  m.entries += cost(p);
  for (const [k, o] of m.postings) {
    if (m.entries <= POSTINGS_CACHED) break;
    m.postings.delete(k);
    m.entries -= cost(o);
  }
}

/** Remembered postings, now the most recently used; undefined when forgotten or never read. */
export function recallPostings(m: PostingsMemory, key: string): TermPostings | undefined {
  const p = m.postings.get(key);
  if (!p) return undefined;
  m.postings.delete(key);
  m.postings.set(key, p);
  return p;
}
