import type { SQL } from "bun";
import type { CorpusIndex, TermPostings } from "../corpus-index.ts";
import { toDocumentRow } from "../corpus-rows.ts";
import { docsWhere } from "./corpus.ts";
import { analyze } from "./corpus-index.ts";

/**
 * The index port on PostgreSQL: postings and document frequencies from corpus_terms (an
 * index-only read per batch of terms, within the searched collections' ranges of the index), lengths from the document rows, terms parsed and
 * stemmed as documents are (corpus-index.ts). Collections' versions change on every write
 * (touchCollection), whichever instance wrote.
 */
export function pgCorpusIndex(sql: SQL): CorpusIndex {
  return {
    async collections() {
      return await sql<{ id: number; name: string; version: string }[]>`SELECT id, name, version::text AS version
        FROM corpus_collections ORDER BY id`;
    },
    analyse: (text) => analyze(sql, text),
    async postings(terms, ids) {
      const out = new Map(terms.map((t) => [t, { docs: [], title: [], body: [] } as TermPostings]));
      if (!terms.length) return out;
      const rows = (await sql`SELECT term, document_id, title_tf, body_tf FROM corpus_terms
        WHERE collection_id = ANY(${ids}::int[]) AND term = ANY(${terms}::text[])
        ORDER BY term, document_id`.values()) as [string, number, number, number][];
      for (const [term, doc, t, b] of rows) {
        const p = out.get(term)!;
        p.docs.push(doc);
        p.title.push(t);
        p.body.push(b);
      }
      return out;
    },
    async documentFrequencies(terms, ids) {
      const out = new Map(terms.map((t) => [t, 0]));
      if (!terms.length) return out;
      const rows = await sql`SELECT term, count(*)::int AS n FROM corpus_terms
        WHERE collection_id = ANY(${ids}::int[]) AND term = ANY(${terms}::text[]) GROUP BY term`;
      for (const r of rows as { term: string; n: number }[]) out.set(r.term, r.n);
      return out;
    },
    async lengths(ids) {
      const rows = (await sql`SELECT id, collection_id, title_len, body_len FROM corpus_documents
        WHERE collection_id = ANY(${ids}::int[])`.values()) as [number, number, number, number][];
      const column = (k: number) => Int32Array.from(rows, (r) => r[k]!);
      return { ids: column(0), collection: column(1), title: column(2), body: column(3) };
    },
    async termCounts(documents) {
      const rows = (await sql`SELECT document_id, term, title_tf + body_tf FROM corpus_terms
        WHERE document_id = ANY(${documents}::int[])`.values()) as [number, string, number][];
      const out = new Map<number, Map<string, number>>(documents.map((id) => [id, new Map()]));
      for (const [id, term, n] of rows) out.get(id)!.set(term, n);
      return out;
    },
    async documents(ids) {
      if (!ids.length) return [];
      return (await docsWhere(sql, sql`d.id = ANY(${ids}::int[])`)).map(toDocumentRow);
    },
  };
}
