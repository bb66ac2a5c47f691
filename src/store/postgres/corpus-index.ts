import type { SQL } from "bun";
import { denseBigrams } from "../../corpus/search/dense-bigrams.ts";
import type { CorpusQuery } from "../types.ts";

/** The text search configuration of db/pg/0001_corpus_text_search.sql: English stems, no stop words. */
export const TS_CONFIG = "rq_english";

/** The columns of a document row besides its index. */
export interface DocumentColumns {
  collectionId: number;
  docId: string;
  title: string;
  url: string | null;
  path: string | null;
  format: string;
  contentHash: string;
  chars: number;
  truncated: number;
  addedAt: string;
}

/**
 * Writes a document and its index in one statement: PostgreSQL parses and stems title and
 * body (title positions weighted A, body D), and each term's count per field goes to
 * corpus_terms, the fields' lengths to the row — the same tokens on both sides. CJK runs as
 * bigrams, as the query's. tsvector keeps at most 256 positions of a term and none past
 * 16,383, so very long documents count a little short. `id` keeps a copied document's
 * number; null takes the next. Returns the id.
 */
export async function insertDocument(db: SQL, d: DocumentColumns, body: string, id: number | null = null) {
  const [row] = await db`WITH v AS (
      SELECT u.lexeme, count(*) FILTER (WHERE w = 'A')::int AS t, count(*) FILTER (WHERE w = 'D')::int AS b
      FROM unnest(setweight(to_tsvector(${TS_CONFIG}::regconfig, ${denseBigrams(d.title)}), 'A')
        || setweight(to_tsvector(${TS_CONFIG}::regconfig, ${denseBigrams(body)}), 'D')) u, unnest(u.weights) w
      GROUP BY u.lexeme
    ), doc AS (
      INSERT INTO corpus_documents (id, collection_id, doc_id, title, url, path, format, content_hash, chars, truncated,
        added_at, title_len, body_len) OVERRIDING SYSTEM VALUE
      SELECT coalesce(${id}::int, nextval(pg_get_serial_sequence('corpus_documents', 'id'))::int), ${d.collectionId},
        ${d.docId}, ${d.title}, ${d.url}, ${d.path}, ${d.format}, ${d.contentHash}, ${d.chars}, ${d.truncated},
        ${d.addedAt}, coalesce((SELECT sum(t) FROM v), 0), coalesce((SELECT sum(b) FROM v), 0)
      RETURNING id
    ), terms AS (
      INSERT INTO corpus_terms (document_id, term, title_tf, body_tf) SELECT doc.id, v.lexeme, v.t, v.b FROM doc, v
    )
    SELECT id FROM doc`;
  return row.id as number;
}

/** Writes a document's passages, each with its vector, in one statement however many there are. */
export async function insertPassages(db: SQL, documentId: number, passages: string[]): Promise<void> {
  if (!passages.length) return;
  const rows = passages.map((text, seq) => ({ seq, text, dense: denseBigrams(text) }));
  await db`INSERT INTO corpus_passages (document_id, seq, text, search)
    SELECT ${documentId}, p.seq, p.text, to_tsvector(${TS_CONFIG}::regconfig, p.dense)
    FROM jsonb_to_recordset(${rows}::jsonb) AS p(seq int, text text, dense text)`;
}

/** Marks a collection changed: every instance's ranking caches (corpus-search.ts) start over. */
export async function touchCollection(db: SQL, collectionId: number): Promise<void> {
  await db`UPDATE corpus_collections SET version = version + 1 WHERE id = ${collectionId}`;
}

/** The index's own terms of a text (parsed and stemmed as documents are), in order of first appearance. */
export async function analyze(db: SQL, text: string): Promise<string[]> {
  const rows = await db`SELECT u.lexeme FROM unnest(to_tsvector(${TS_CONFIG}::regconfig, ${denseBigrams(text)})) u
    ORDER BY u.positions[1]`;
  return rows.map((r: { lexeme: string }) => r.lexeme);
}

/**
 * The query's words as a tsquery matching any of them, as text: each term quoted (a
 * backslash escapes a quote or backslash inside), so none is read as syntax or stemmed again.
 */
export async function queryTerms(db: SQL, q: CorpusQuery): Promise<string | null> {
  const terms = await analyze(db, q.words.join(" "));
  return terms.length ? terms.map((t) => `'${t.replace(/[\\']/g, "\\$&")}'`).join(" | ") : null;
}
