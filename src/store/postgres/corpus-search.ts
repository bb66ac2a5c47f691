import type { SQL } from "bun";
import { bm25f, type TermPostings, topDocs } from "../../corpus/search/bm25f.ts";
import { expandQuery, type FeedbackDoc } from "../../corpus/search/feedback.ts";
import type { CorpusPassage, CorpusQuery } from "../types.ts";
import { analyze, queryTerms } from "./corpus-index.ts";
import { corpusSnapshots, type Snapshot } from "./corpus-snapshot.ts";

/**
 * Ranked search scored in JS by the same BM25F and feedback as on SQLite (src/corpus/search),
 * so both backends rank alike: PostgreSQL's ts_rank has neither per-field saturation nor
 * per-term weights. Postings and document frequencies come from corpus_terms (an index-only
 * read per batch of terms), lengths from the instance's snapshot (corpus-snapshot.ts).
 */
export function pgCorpusSearch(sql: SQL) {
  const snapshots = corpusSnapshots(sql);

  /** Postings of the terms not yet at hand, kept to the documents of one collection when asked. */
  async function fetch(terms: string[], have: Map<string, TermPostings>, cid: number | null, s: Snapshot) {
    const missing = terms.filter((t) => !have.has(t) && !s.postings.has(t));
    if (missing.length) {
      const fetched = new Map(missing.map((t) => [t, { docs: [], title: [], body: [] } as TermPostings]));
      const rows = (await sql`SELECT term, document_id, title_tf, body_tf FROM corpus_terms
        WHERE term = ANY(${missing}::text[]) ORDER BY term, document_id`.values()) as [
        string,
        number,
        number,
        number,
      ][];
      for (const [term, doc, t, b] of rows) {
        // A document written after the snapshot is left for the next one, which will know its length.
        if (!s.collection[doc]) continue;
        const p = fetched.get(term)!;
        p.docs.push(doc);
        p.title.push(t);
        p.body.push(b);
      }
      for (const [t, p] of fetched) snapshots.remember(s, t, p);
    }
    for (const term of terms) {
      if (have.has(term)) continue;
      const all = s.postings.get(term) ?? { docs: [], title: [], body: [] };
      if (cid === null) {
        have.set(term, all);
        continue;
      }
      const p: TermPostings = { docs: [], title: [], body: [] };
      all.docs.forEach((doc, i) => {
        if (s.collection[doc] !== cid) return;
        p.docs.push(doc);
        p.title.push(all.title[i]!);
        p.body.push(all.body[i]!);
      });
      have.set(term, p);
    }
  }

  /** Document frequencies over all collections of the terms not known yet, in one index-only read. */
  async function fillDf(terms: Iterable<string>, s: Snapshot): Promise<void> {
    const missing = [...new Set(terms)].filter((t) => !s.df.has(t));
    if (!missing.length) return;
    for (const t of missing) s.df.set(t, 0);
    const rows =
      await sql`SELECT term, count(*)::int AS n FROM corpus_terms WHERE term = ANY(${missing}::text[]) GROUP BY term`;
    for (const r of rows as { term: string; n: number }[]) s.df.set(r.term, r.n);
  }

  /** Each document's terms with their counts (title and body together), as feedback reads them. */
  async function termCounts(ids: number[]): Promise<Map<number, Map<string, number>>> {
    const rows = (await sql`SELECT document_id, term, title_tf + body_tf FROM corpus_terms
      WHERE document_id = ANY(${ids}::int[])`.values()) as [number, string, number][];
    const out = new Map<number, Map<string, number>>(ids.map((id) => [id, new Map()]));
    for (const [id, term, n] of rows) out.get(id)!.set(term, n);
    return out;
  }

  return {
    /** Document ids and scores, best first. */
    async search(query: CorpusQuery, o: { collectionId: number | null; limit: number }): Promise<[number, number][]> {
      const terms = await analyze(sql, query.words.join(" "));
      if (!terms.length) return [];
      const r = query.ranking;
      const s = await snapshots.current();
      const len = s.of(o.collectionId);
      const postings = new Map<string, TermPostings>();
      const weights = new Map(terms.map((t) => [t, 1]));
      await fetch(terms, postings, o.collectionId, s);
      let scores = bm25f(weights, postings, len, r);
      if (!r.feedback || !scores.size) return topDocs(scores, o.limit);
      const first = topDocs(scores, r.feedback.docs);
      const counts = await termCounts(first.map(([id]) => id));
      const docs: FeedbackDoc[] = first.map(([id, score]) => ({ score, terms: counts.get(id)! }));
      // Collection-wide document frequencies, as on SQLite: close enough to pick expansion words.
      await fillDf(
        docs.flatMap((d) => [...d.terms.keys()]),
        s,
      );
      const expanded = expandQuery(weights, docs, (t) => s.df.get(t) ?? 0, s.of(null).docs, r.feedback);
      await fetch([...expanded.keys()], postings, o.collectionId, s);
      scores = bm25f(expanded, postings, len, r);
      return topDocs(scores, o.limit);
    },
    /** The passages of a document that best match, in document order; none when none match. */
    async matchingPassages(documentId: number, query: CorpusQuery, limit: number): Promise<CorpusPassage[]> {
      const q = await queryTerms(sql, query);
      if (!q) return [];
      return [
        ...(await sql<CorpusPassage[]>`SELECT seq, text FROM (
          SELECT p.seq, p.text FROM corpus_passages p
          WHERE p.document_id = ${documentId} AND p.search @@ ${q}::tsquery
          ORDER BY ts_rank(p.search, ${q}::tsquery) DESC, p.seq LIMIT ${limit}
        ) best ORDER BY seq`),
      ];
    },
  };
}
