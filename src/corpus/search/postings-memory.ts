import type { TermPostings } from "../../store/corpus-index.ts";

/** Postings (document entries) kept in memory at most: about 40 MB. */
const POSTINGS_CACHED = 2_000_000;

/**
 * Recent terms' postings, least recently used first, as a ranker keeps them until the index
 * changes (index-snapshot.ts): reading them is most of a search's time.
 */
export interface PostingsMemory {
  postings: Map<string, TermPostings>;
  entries: number;
}

/** Remembers a term's postings, forgetting the least recently used past the cap. */
export function rememberPostings(m: PostingsMemory, term: string, p: TermPostings): void {
  m.postings.set(term, p);
  m.entries += p.docs.length;
  for (const [t, old] of m.postings) {
    if (m.entries <= POSTINGS_CACHED) break;
    m.postings.delete(t);
    m.entries -= old.docs.length;
  }
}
