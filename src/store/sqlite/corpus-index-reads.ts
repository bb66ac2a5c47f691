import type { Database } from "bun:sqlite";
import type { CorpusIndex, DocumentLengths, IndexedCollection, TermPostings } from "../corpus-index.ts";
import { type DocRowRaw, toDocumentRow } from "../corpus-rows.ts";
import { DOC_COLUMNS } from "./corpus.ts";
import { sqliteAnalyzer } from "./corpus-analyzer.ts";

/**
 * The index port on SQLite: postings from the fts5vocab tables of corpus_docs_fts
 * (db/0006_corpus_fts.sql), lengths from FTS5's own docsize table, text through the index's
 * tokenizer (corpus-analyzer.ts). `changed` is called after this connection wrote documents:
 * PRAGMA data_version only counts other connections' commits.
 */
export function sqliteCorpusIndex(db: Database): CorpusIndex & { changed(): void } {
  let writes = 0;
  let analyzer: ReturnType<typeof sqliteAnalyzer> | null = null;
  const analyzed = () => (analyzer ??= sqliteAnalyzer(db));
  const dataVersion = db.prepare<{ data_version: number }, []>("PRAGMA data_version");
  const collections = db.prepare<{ id: number; name: string }, []>(
    "SELECT id, name FROM corpus_collections ORDER BY id",
  );
  const collectionIds = db.prepare<unknown, []>("SELECT id FROM corpus_collections");
  const docsOf = db.prepare<unknown, [string]>(
    "SELECT id FROM corpus_documents WHERE collection_id IN (SELECT value FROM json_each(?))",
  );
  const occurrences = db.prepare<unknown, [string]>("SELECT doc, col FROM corpus_docs_terms WHERE term = ?");
  const docFreq = db.prepare<{ doc: number }, [string]>("SELECT doc FROM corpus_docs_vocab WHERE term = ?");
  const sizes = db.prepare<unknown, [string]>(
    `SELECT s.id, s.sz, d.collection_id FROM corpus_docs_fts_docsize s JOIN corpus_documents d ON d.id = s.id
     WHERE d.collection_id IN (SELECT value FROM json_each(?))`,
  );
  const docText = db.prepare<{ text: string }, [number]>(
    `SELECT title AS text FROM corpus_documents WHERE id = ?1
     UNION ALL SELECT text FROM (SELECT text FROM corpus_passages WHERE document_id = ?1 ORDER BY seq)`,
  );
  const docsById = db.prepare<DocRowRaw, [string]>(
    `SELECT ${DOC_COLUMNS} FROM corpus_documents d JOIN corpus_collections c ON c.id = d.collection_id
     WHERE d.id IN (SELECT value FROM json_each(?))`,
  );

  /**
   * The documents of the collections, or null when they are all of them: the index is then
   * read without a filter (compared here, not in SQL: feedback asks many times a search).
   */
  const within = (ids: number[]): Set<number> | null => {
    const asked = new Set(ids);
    if ((collectionIds.values() as [number][]).every(([id]) => asked.has(id))) return null;
    return new Set((docsOf.values(JSON.stringify(ids)) as [number][]).map((r) => r[0]));
  };

  /** A term's postings, one entry per document, from its occurrences (one row per token). */
  function postingsOf(term: string, keep: Set<number> | null): TermPostings {
    const byDoc = new Map<number, number>();
    const p: TermPostings = { docs: [], title: [], body: [] };
    for (const [doc, col] of occurrences.values(term) as [number, string][]) {
      if (keep && !keep.has(doc)) continue;
      let i = byDoc.get(doc);
      if (i === undefined) {
        i = p.docs.length;
        byDoc.set(doc, i);
        p.docs.push(doc);
        p.title.push(0);
        p.body.push(0);
      }
      if (col === "title") p.title[i]!++;
      else p.body[i]!++;
    }
    return p;
  }

  return {
    changed() {
      writes++;
    },
    collections(): IndexedCollection[] {
      // One version for all: SQLite knows that the database changed, not which collection.
      const version = `${dataVersion.get()!.data_version}.${writes}`;
      return collections.all().map((c) => ({ ...c, version }));
    },
    analyse: (text) => analyzed().terms(text),
    postings(terms, ids) {
      const keep = within(ids);
      return new Map(terms.map((t) => [t, postingsOf(t, keep)]));
    },
    documentFrequencies(terms, ids) {
      const keep = within(ids);
      // The vocabulary table counts over the whole index; a part of it is counted from its postings.
      return new Map(
        terms.map((t) => [t, keep ? postingsOf(t, keep).docs.length : (docFreq.get(t)?.doc ?? 0)] as const),
      );
    },
    lengths(ids): DocumentLengths {
      const rows = sizes.values(JSON.stringify(ids)) as [number, Uint8Array, number][];
      const out: DocumentLengths = {
        ids: new Int32Array(rows.length),
        collection: new Int32Array(rows.length),
        title: new Int32Array(rows.length),
        body: new Int32Array(rows.length),
      };
      rows.forEach(([id, sz, cid], i) => {
        const [t = 0, b = 0] = varints(sz);
        out.ids[i] = id;
        out.collection[i] = cid;
        out.title[i] = t;
        out.body[i] = b;
      });
      return out;
    },
    termCounts(documents) {
      const text = (id: number) =>
        docText
          .all(id)
          .map((x) => x.text)
          .join("\n");
      return new Map(documents.map((id) => [id, analyzed().termCounts(text(id))]));
    },
    documents: (ids) => docsById.all(JSON.stringify(ids)).map(toDocumentRow),
  };
}

/** SQLite's big-endian varints, as FTS5 writes them in the docsize table (one per column). */
function varints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let v = 0;
  for (const x of bytes) {
    v = v * 128 + (x & 0x7f);
    if (!(x & 0x80)) {
      out.push(v);
      v = 0;
    }
  }
  return out;
}
