import type { Database } from "bun:sqlite";
import { bm25f, type FieldLengths, type TermPostings, topDocs } from "../../corpus/search/bm25f.ts";
import { denseBigrams } from "../../corpus/search/dense-bigrams.ts";
import { expandQuery, type FeedbackDoc } from "../../corpus/search/feedback.ts";
import { type PostingsMemory, rememberPostings } from "../../corpus/search/postings-memory.ts";
import type { CorpusQuery } from "../types.ts";
import { documentLengths, type LengthsSnapshot } from "./corpus-lengths.ts";

/**
 * What is remembered about the index until it changes (a new lengths snapshot): fts5vocab
 * finds a term's document count and its postings by walking every occurrence — most of a
 * search's time — and a question's words and their expansions recur.
 */
interface Remembered extends PostingsMemory {
  of: LengthsSnapshot | null;
  df: Map<string, number>;
}

/**
 * Ranked search over corpus_docs_fts, scored in JS: FTS5's own bm25() has fixed parameters
 * and no per-term weights, both of which the chosen ranking needs (src/corpus/search).
 * The index's postings come from its fts5vocab table (db/0006_corpus_fts.sql), document
 * lengths from FTS5's docsize table; query and feedback text go through the same tokenizer
 * by way of a scratch FTS5 table in the connection's temp schema.
 */
export function sqliteCorpusSearch(db: Database) {
  const lengths = documentLengths(db);
  let analyzer: ReturnType<typeof makeAnalyzer> | null = null;
  const postingsOf = db.prepare<unknown, [string]>("SELECT doc, col FROM corpus_docs_terms WHERE term = ?");
  const docFreq = db.prepare<{ doc: number }, [string]>("SELECT doc FROM corpus_docs_vocab WHERE term = ?");
  const docText = db.prepare<{ text: string }, [number]>(
    `SELECT title AS text FROM corpus_documents WHERE id = ?1
     UNION ALL SELECT text FROM (SELECT text FROM corpus_passages WHERE document_id = ?1 ORDER BY seq)`,
  );

  let mem: Remembered = { of: null, df: new Map(), postings: new Map(), entries: 0 };
  const remembered = (snap: LengthsSnapshot) => {
    if (mem.of !== snap) mem = { of: snap, df: new Map(), postings: new Map(), entries: 0 };
    return mem;
  };

  function df(term: string, snap: LengthsSnapshot): number {
    const m = remembered(snap);
    let n = m.df.get(term);
    if (n === undefined) {
      n = docFreq.get(term)?.doc ?? 0;
      m.df.set(term, n);
    }
    return n;
  }

  function allPostings(term: string, snap: LengthsSnapshot): TermPostings {
    const m = remembered(snap);
    let p = m.postings.get(term);
    if (p) {
      m.postings.delete(term);
      m.postings.set(term, p);
      return p;
    }
    const byDoc = new Map<number, number>();
    p = { docs: [], title: [], body: [] };
    for (const [doc, c] of postingsOf.values(term) as [number, string][]) {
      let i = byDoc.get(doc);
      if (i === undefined) {
        i = p.docs.length;
        byDoc.set(doc, i);
        p.docs.push(doc);
        p.title.push(0);
        p.body.push(0);
      }
      if (c === "title") p.title[i]!++;
      else p.body[i]!++;
    }
    rememberPostings(m, term, p);
    return p;
  }

  /** Postings of the terms not yet fetched, kept to the documents of one collection when asked. */
  function fetch(terms: Iterable<string>, have: Map<string, TermPostings>, cid: number | null, snap: LengthsSnapshot) {
    for (const term of terms) {
      if (have.has(term)) continue;
      const all = allPostings(term, snap);
      if (cid === null) {
        have.set(term, all);
        continue;
      }
      const p: TermPostings = { docs: [], title: [], body: [] };
      all.docs.forEach((doc, i) => {
        if (snap.collection[doc] !== cid) return;
        p.docs.push(doc);
        p.title.push(all.title[i]!);
        p.body.push(all.body[i]!);
      });
      have.set(term, p);
    }
  }

  return {
    /** To be called after this connection wrote documents: the lengths are read again. */
    changed: () => lengths.changed(),
    /** Document ids and scores, best first. */
    search(query: CorpusQuery, o: { collectionId: number | null; limit: number }): [number, number][] {
      analyzer ??= makeAnalyzer(db);
      const terms = analyzer.terms(query.words.join(" "));
      if (!terms.length) return [];
      const r = query.ranking;
      const stats = lengths.current();
      const len: FieldLengths = stats.of(o.collectionId);
      const postings = new Map<string, TermPostings>();
      const weights = new Map(terms.map((t) => [t, 1]));
      fetch(weights.keys(), postings, o.collectionId, stats);
      let scores = bm25f(weights, postings, len, r);
      if (!r.feedback || !scores.size) return topDocs(scores, o.limit);
      const first = topDocs(scores, r.feedback.docs);
      const docs: FeedbackDoc[] = first.map(([id, score]) => ({
        score,
        terms: analyzer!.termCounts(
          docText
            .all(id)
            .map((x) => x.text)
            .join("\n"),
        ),
      }));
      // Collection-wide document frequencies: a term's share of one collection is close enough to pick expansion words.
      const expanded = expandQuery(weights, docs, (t) => df(t, stats), stats.of(null).docs, r.feedback);
      fetch(expanded.keys(), postings, o.collectionId, stats);
      scores = bm25f(expanded, postings, len, r);
      return topDocs(scores, o.limit);
    },
  };
}

/** The index's own tokens of a text: a contentless FTS5 table in temp with the index's tokenizer, read back through fts5vocab. */
function makeAnalyzer(db: Database) {
  const sql = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'corpus_docs_fts'").get()!.sql;
  const tokenize = sql.match(/tokenize\s*=\s*('(?:[^']|'')*')/)?.[1] ?? "'unicode61'";
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_analyze USING fts5(x, content='', contentless_delete=1, tokenize=${tokenize})`,
  );
  db.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_analyze_terms USING fts5vocab(temp, corpus_analyze, 'instance')",
  );
  const clear = db.prepare("DELETE FROM temp.corpus_analyze");
  const put = db.prepare<never, [number, string]>("INSERT INTO temp.corpus_analyze (rowid, x) VALUES (?, ?)");
  const counts = db.prepare<unknown, []>("SELECT term, count(*) FROM temp.corpus_analyze_terms GROUP BY term");
  const ordered = db.prepare<unknown, []>("SELECT term FROM temp.corpus_analyze_terms ORDER BY offset");
  return {
    /** Distinct terms of a query, in order of first appearance. */
    terms(text: string): string[] {
      clear.run();
      put.run(1, denseBigrams(text));
      return [...new Set((ordered.values() as [string][]).map((r) => r[0]))];
    },
    /** Term counts of one document's text. */
    termCounts(text: string): Map<string, number> {
      clear.run();
      put.run(1, denseBigrams(text));
      return new Map(counts.values() as [string, number][]);
    },
  };
}
