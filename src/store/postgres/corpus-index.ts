import type { SQL } from "bun";
import { denseBigrams } from "../dense-bigrams.ts";

/** The text search configuration of db/pg/0001_corpus_text_search.sql: English stems, no stop words. */
export const TS_CONFIG = "rq_english";

/** A document to write: its row's columns, its text, and the id to keep (a copied document's) or null. */
export interface DocumentInput {
  id: number | null;
  collectionId: number;
  docId: string;
  title: string;
  url: string | null;
  path: string | null;
  format: string;
  contentHash: string;
  chars: number;
  /** UTF-8 bytes of the passages (the storage allowance's measure) */
  bytes: number;
  truncated: number;
  addedAt: string;
  passages: string[];
}

/** Characters sent in one statement at most: a batch of long documents is split. */
const STATEMENT_CHARS = 4_000_000;

/**
 * Writes documents with their index and passages, a few statements per batch rather than per
 * document (round trips, not parsing, were most of an import's time). PostgreSQL parses and
 * stems title and body (title positions weighted A, body D); each term's count per field goes
 * to corpus_terms and the fields' lengths to the row — the same tokens on both sides. CJK
 * runs as bigrams, as the query's. tsvector keeps at most 256 positions of a term and none
 * past 16,383, so very long documents count a little short. Returns the ids, in order.
 */
export async function insertDocuments(db: SQL, docs: DocumentInput[]): Promise<number[]> {
  const ids: number[] = [];
  for (let from = 0; from < docs.length; ) {
    let to = from + 1;
    for (let chars = docs[from]!.chars; to < docs.length && chars + docs[to]!.chars <= STATEMENT_CHARS; to++)
      chars += docs[to]!.chars;
    ids.push(...(await insertChunk(db, docs.slice(from, to))));
    from = to;
  }
  return ids;
}

async function insertChunk(db: SQL, docs: DocumentInput[]): Promise<number[]> {
  const rows = docs.map((d, i) => ({
    i,
    id: d.id,
    collection_id: d.collectionId,
    doc_id: d.docId,
    title: d.title,
    url: d.url,
    path: d.path,
    format: d.format,
    content_hash: d.contentHash,
    chars: d.chars,
    bytes: d.bytes,
    truncated: d.truncated,
    added_at: d.addedAt,
    dense_title: denseBigrams(d.title),
    dense_body: denseBigrams(d.passages.join("\n")),
  }));
  const numbered = await db`WITH input AS (
      SELECT * FROM jsonb_to_recordset(${rows}::jsonb) AS d(i int, id int, collection_id int, doc_id text, title text,
        url text, path text, format text, content_hash text, chars int, bytes int, truncated int, added_at text, dense_title text,
        dense_body text)
    ), v AS (
      SELECT input.i, u.lexeme, count(*) FILTER (WHERE w = 'A')::int AS t, count(*) FILTER (WHERE w = 'D')::int AS b
      FROM input,
        unnest(setweight(to_tsvector(${TS_CONFIG}::regconfig, input.dense_title), 'A')
          || setweight(to_tsvector(${TS_CONFIG}::regconfig, input.dense_body), 'D')) u,
        unnest(u.weights) w
      GROUP BY input.i, u.lexeme
    ), lens AS (
      SELECT i, sum(t)::int AS t, sum(b)::int AS b FROM v GROUP BY i
    ), numbered AS (
      SELECT input.*, coalesce(input.id, nextval(pg_get_serial_sequence('corpus_documents', 'id'))::int) AS new_id
      FROM input
    ), doc AS (
      INSERT INTO corpus_documents (id, collection_id, doc_id, title, url, path, format, content_hash, chars, bytes, truncated,
        added_at, title_len, body_len) OVERRIDING SYSTEM VALUE
      SELECT n.new_id, n.collection_id, n.doc_id, n.title, n.url, n.path, n.format, n.content_hash, n.chars, n.bytes,
        n.truncated, n.added_at, coalesce(l.t, 0), coalesce(l.b, 0)
      FROM numbered n LEFT JOIN lens l ON l.i = n.i
    ), terms AS (
      INSERT INTO corpus_terms (document_id, term, title_tf, body_tf, collection_id)
      SELECT n.new_id, v.lexeme, v.t, v.b, n.collection_id FROM numbered n JOIN v ON v.i = n.i
    )
    SELECT i, new_id FROM numbered ORDER BY i`;
  const ids = numbered.map((r: { new_id: number }) => r.new_id as number);
  const passages = docs.flatMap((d, i) =>
    d.passages.map((text, seq) => ({ document_id: ids[i], seq, text, dense: denseBigrams(text) })),
  );
  if (passages.length)
    await db`INSERT INTO corpus_passages (document_id, seq, text, search)
      SELECT p.document_id, p.seq, p.text, to_tsvector(${TS_CONFIG}::regconfig, p.dense)
      FROM jsonb_to_recordset(${passages}::jsonb) AS p(document_id int, seq int, text text, dense text)`;
  return ids;
}

/** Marks a collection changed: every instance's ranker caches (src/corpus/search/index-snapshot.ts) start over. */
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
export async function queryTerms(db: SQL, words: string[]): Promise<string | null> {
  const terms = await analyze(db, words.join(" "));
  return terms.length ? terms.map((t) => `'${t.replace(/[\\']/g, "\\$&")}'`).join(" | ") : null;
}
