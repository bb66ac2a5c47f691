import type { CorpusIndex, TermPostings } from "../../store/corpus-index.ts";
import { bm25f, topDocs } from "./bm25f.ts";
import { expandQuery, type FeedbackDoc } from "./feedback.ts";
import { type IndexSnapshot, indexSnapshots } from "./index-snapshot.ts";
import { postingsKey, recallPostings, rememberPostings } from "./postings-memory.ts";
import { informativeTerms, MAX_QUERY_TERMS } from "./query-cap.ts";
import type { CorpusDocHit, CorpusQuery } from "./ranking.ts";

/** Ranks the documents of collections for a query: the one pipeline, whatever the backend. */
export interface Ranker {
  /**
   * Documents of the given collections (the store's ids; every collection for null) matching
   * any of the query's words, best first. Nothing of another collection counts: not its
   * documents, nor its lengths, nor its document frequencies (a reader could otherwise infer
   * what a private collection holds from how their own documents rank).
   */
  rank(query: CorpusQuery, collections: number[] | null, limit: number): Promise<CorpusDocHit[]>;
  /**
   * Until the returned release is called, searches may use a view of the index up to
   * `IMPORT_STALE_MS` old instead of re-reading it after every write (an import writes many
   * times a second, and each re-read holds a SQLite server's thread for tens of milliseconds).
   */
  holdDuringImport(): () => void;
}

/**
 * Counted holds, each released once however often its release is called: while any is held,
 * `held` is true (an instance may run several imports at once).
 */
export function importHolds() {
  let holds = 0;
  return {
    get held(): boolean {
      return holds > 0;
    },
    hold(): () => void {
      holds++;
      let released = false;
      return () => {
        if (!released) holds--;
        released = true;
      };
    },
  };
}

/** How old a view of the index searches may use while an import writes (see holdDuringImport). */
export const IMPORT_STALE_MS = 1_000;

const none = (): TermPostings => ({ docs: [], title: [], body: [] });

/** The postings of each collection in `cids`, from postings over them all; documents unknown to the snapshot left out. */
function splitByCollection(p: TermPostings, cids: number[], s: IndexSnapshot): Map<number, TermPostings> {
  const out = new Map(cids.map((cid) => [cid, none()]));
  p.docs.forEach((doc, i) => {
    const part = out.get(s.collection[doc] ?? 0);
    if (!part) return;
    part.docs.push(doc);
    part.title.push(p.title[i]!);
    part.body.push(p.body[i]!);
  });
  return out;
}

/** One term's postings over several collections, in the order of `parts` (the searched ids, ascending). */
function joined(parts: TermPostings[]): TermPostings {
  if (parts.length === 1) return parts[0]!;
  const out = none();
  for (const p of parts) {
    out.docs.push(...p.docs);
    out.title.push(...p.title);
    out.body.push(...p.body);
  }
  return out;
}

/**
 * BM25F scored here rather than by either backend (FTS5's bm25() has fixed parameters and no
 * per-term weights, PostgreSQL's ts_rank neither per-field saturation nor weights), so both
 * rank alike. The index is read through the store's port, in batches, and what is read is
 * kept in the snapshot until the collections change (index-snapshot.ts). One ranker per
 * index: its memory is the instance's.
 */
export function createRanker(index: CorpusIndex, now?: () => number, maxTerms = MAX_QUERY_TERMS): Ranker {
  const snapshots = indexSnapshots(index, now);
  const imports = importHolds();

  /**
   * Adds the postings of `terms` not yet in `have`, within the searched collections only.
   * Threat: a search that read (or found remembered) another collection's postings would take
   * longer, or shorter, by what that collection holds — telling a caller whether a word is in
   * someone's private collection. So postings are read and remembered per collection and term,
   * and a search touches those of its own collections and no others.
   */
  async function fetch(terms: string[], have: Map<string, TermPostings>, ids: number[], s: IndexSnapshot) {
    const wanted = terms.filter((t) => !have.has(t));
    const missingTerms = new Set<string>();
    const missingIds = new Set<number>();
    for (const t of wanted)
      for (const cid of ids)
        if (!s.postings.has(postingsKey(cid, t))) {
          missingTerms.add(t);
          missingIds.add(cid);
        }
    // What this call read serves it even if the cap forgot it at once (a search larger than the memory).
    const fresh = new Map<string, TermPostings>();
    if (missingTerms.size) {
      const cids = [...missingIds];
      const read = await index.postings([...missingTerms], cids);
      for (const t of missingTerms) {
        // A document written after the snapshot is left for the next one, which will know its length.
        const parts = splitByCollection(read.get(t) ?? none(), cids, s);
        for (const [cid, p] of parts) {
          fresh.set(postingsKey(cid, t), p);
          rememberPostings(s, postingsKey(cid, t), p);
        }
      }
    }
    const part = (key: string) => fresh.get(key) ?? recallPostings(s, key) ?? none();
    for (const t of wanted) have.set(t, joined(ids.map((cid) => part(postingsKey(cid, t)))));
  }

  /** Document frequencies within the searched collections, remembered per set of them: feedback looks many up. */
  async function frequencies(terms: string[], ids: number[], s: IndexSnapshot): Promise<Map<string, number>> {
    const key = ids.join(",");
    let df = s.df.get(key);
    if (!df) {
      df = new Map();
      s.df.set(key, df);
    }
    const missing = terms.filter((t) => !df.has(t));
    if (missing.length) for (const [t, n] of await index.documentFrequencies(missing, ids)) df.set(t, n);
    return new Map(terms.map((t) => [t, df.get(t) ?? 0]));
  }

  return {
    holdDuringImport: () => imports.hold(),
    async rank(query, collections, limit) {
      const s = await snapshots.current(imports.held ? IMPORT_STALE_MS : 0);
      const ids = collections ? s.ids.filter((id) => collections.includes(id)) : s.ids;
      if (!ids.length) return [];
      const terms = await informativeTerms(
        await index.analyse(query.words.join(" ")),
        (ts) => frequencies(ts, ids, s),
        maxTerms,
      );
      if (!terms.length) return [];
      const r = query.ranking;
      const len = await s.of(ids);
      const postings = new Map<string, TermPostings>();
      const weights = new Map(terms.map((t) => [t, 1]));
      await fetch(terms, postings, ids, s);
      let scores = bm25f(weights, postings, len, r);
      if (r.feedback && scores.size) {
        const first = topDocs(scores, r.feedback.docs);
        const counts = await index.termCounts(first.map(([id]) => id));
        const docs: FeedbackDoc[] = first.map(([id, score]) => ({ score, terms: counts.get(id) ?? new Map() }));
        const expanded = await expandQuery(weights, docs, (ts) => frequencies(ts, ids, s), len.docs, r.feedback);
        await fetch([...expanded.keys()], postings, ids, s);
        scores = bm25f(expanded, postings, len, r);
      }
      const top = topDocs(scores, limit);
      if (!top.length) return [];
      const rows = new Map((await index.documents(top.map(([id]) => id))).map((d) => [d.id, d]));
      return top.flatMap(([id, score]) => {
        const row = rows.get(id);
        return row ? [{ ...row, score }] : [];
      });
    },
  };
}
