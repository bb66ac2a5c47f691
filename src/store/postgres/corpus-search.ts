import type { SQL } from "bun";
import { denseBigrams } from "../../corpus/search/dense-bigrams.ts";
import type { CorpusPassage, CorpusQuery, CorpusRanking } from "../types.ts";

/** The text search configuration of db/pg/0001_corpus_text_search.sql: English stems, no stop words. */
export const TS_CONFIG = "rq_english";

/** A document's vector: title words weighted A, body words D, so ranking can weigh them apart. */
export const documentVector = (db: SQL, title: string, body: string) =>
  db`setweight(to_tsvector(${TS_CONFIG}::regconfig, ${denseBigrams(title)}), 'A')
    || setweight(to_tsvector(${TS_CONFIG}::regconfig, ${denseBigrams(body)}), 'D')`;

/**
 * Writes a document's passages, each with its vector, in one statement however many there
 * are. CJK runs as bigrams, as in the document's vector and the query.
 */
export async function insertPassages(db: SQL, documentId: number, passages: string[]): Promise<void> {
  if (!passages.length) return;
  const rows = passages.map((text, seq) => ({ seq, text, dense: denseBigrams(text) }));
  await db`INSERT INTO corpus_passages (document_id, seq, text, search)
    SELECT ${documentId}, p.seq, p.text, to_tsvector(${TS_CONFIG}::regconfig, p.dense)
    FROM jsonb_to_recordset(${rows}::jsonb) AS p(seq int, text text, dense text)`;
}

/**
 * The query's words as one tsquery matching any of them. Each word goes through the
 * index's own parser and stemmer (plainto_tsquery: no word is read as syntax), CJK runs
 * as bigrams as when indexed; tsquery's text form is itself quoted tsquery syntax, so the
 * parts can be joined with `|` and read back.
 */
const tsquery = (db: SQL, q: CorpusQuery) => {
  const words = [...new Set(q.words.map((w) => denseBigrams(w).trim()).filter(Boolean))];
  return db`(SELECT string_agg('(' || t::text || ')', ' | ')::tsquery FROM (
      SELECT plainto_tsquery(${TS_CONFIG}::regconfig, w) AS t FROM unnest(${words}::text[]) AS w
    ) s WHERE t::text <> '')`;
};

/**
 * ts_rank's weights for {D, C, B, A}: a title word counts `titleWeight` body words. BM25's
 * saturation (k1) has no counterpart here; its length normalisation (b > 0) becomes
 * ts_rank's "divide by 1 + log(length)". Pseudo-relevance feedback is not applied: ts_rank
 * takes no per-term weights (README "PostgreSQL").
 */
const weights = (r: CorpusRanking) => {
  const scale = Math.max(1, r.titleWeight);
  return `{${1 / scale},0,0,${r.titleWeight / scale}}`;
};

/** Ranked document search over the GIN-indexed `search` vectors. */
export function pgCorpusSearch(sql: SQL) {
  return {
    /** Document ids and scores, best first. */
    async search(query: CorpusQuery, o: { collectionId: number | null; limit: number }): Promise<[number, number][]> {
      const rows = await sql`WITH q AS (SELECT ${tsquery(sql, query)} AS q)
        SELECT d.id, ts_rank(${weights(query.ranking)}::float4[], d.search, q.q, ${query.ranking.b > 0 ? 1 : 0})::float8 AS score
        FROM corpus_documents d, q
        WHERE q.q IS NOT NULL AND d.search @@ q.q AND (${o.collectionId}::int IS NULL OR d.collection_id = ${o.collectionId})
        ORDER BY score DESC, d.id LIMIT ${o.limit}`;
      return rows.map((r: { id: number; score: number }) => [r.id, r.score] as [number, number]);
    },
    /** The passages of a document that best match, in document order; none when none match. */
    async matchingPassages(documentId: number, query: CorpusQuery, limit: number): Promise<CorpusPassage[]> {
      return [
        ...(await sql<CorpusPassage[]>`WITH q AS (SELECT ${tsquery(sql, query)} AS q)
        SELECT seq, text FROM (
          SELECT p.seq, p.text FROM corpus_passages p, q
          WHERE q.q IS NOT NULL AND p.document_id = ${documentId} AND p.search @@ q.q
          ORDER BY ts_rank(p.search, q.q) DESC, p.seq LIMIT ${limit}
        ) best ORDER BY seq`),
      ];
    },
  };
}
