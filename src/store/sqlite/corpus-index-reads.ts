import type { Database } from "bun:sqlite";
import type { CorpusIndex, DocumentLengths, IndexedCollection, TermPostings } from "../corpus-index.ts";
import { type DocRowRaw, toDocumentRow } from "../corpus-rows.ts";
import { DOC_COLUMNS } from "./corpus.ts";
import { sqliteAnalyzer } from "./corpus-analyzer.ts";
import { collectionTerm, STORED_TEXT } from "./corpus-postings.ts";

/**
 * The index port on SQLite: postings and document frequencies from corpus_terms_fts's
 * vocabulary, lengths from the document rows (db/0012_corpus_terms.sql), both read per
 * searched collection;
 * text, and feedback's term counts, through the index's tokenizer (corpus-analyzer.ts).
 * `changed` is called after this connection wrote documents: PRAGMA data_version only counts
 * other connections' commits.
 */
export function sqliteCorpusIndex(db: Database): CorpusIndex & { changed(): void } {
  let writes = 0;
  let analyzer: ReturnType<typeof sqliteAnalyzer> | null = null;
  const analyzed = () => (analyzer ??= sqliteAnalyzer(db));
  const dataVersion = db.prepare<{ data_version: number }, []>("PRAGMA data_version");
  const collections = db.prepare<{ id: number; name: string }, []>(
    "SELECT id, name FROM corpus_collections ORDER BY id",
  );
  // One term of one collection (db/0012_corpus_terms.sql): FTS5 seeks it in each segment and
  // reads its occurrences alone, summed here per document, so neither a collection not searched
  // nor the number of occurrences reaches a search's time or memory beyond its own documents.
  const postingRows = db.prepare<unknown, [string]>(
    `SELECT doc, sum(col = 'title'), sum(col = 'body') FROM corpus_terms_occurrences WHERE term = ?
     GROUP BY doc ORDER BY doc`,
  );
  const frequency = db.prepare<{ doc: number }, [string]>("SELECT doc FROM corpus_terms_vocab WHERE term = ?");
  const storedTexts = db.prepare<{ id: number; title: string; body: string }, [string]>(
    `${STORED_TEXT} WHERE d.id IN (SELECT value FROM json_each(?))`,
  );
  // One range of corpus_documents_doc_uq per searched collection: nothing of a collection not searched.
  const sizes = db.prepare<unknown, [string]>(
    `SELECT id, collection_id, title_len, body_len FROM corpus_documents
     WHERE collection_id IN (SELECT value FROM json_each(?))`,
  );
  const docsById = db.prepare<DocRowRaw, [string]>(
    `SELECT ${DOC_COLUMNS} FROM corpus_documents d JOIN corpus_collections c ON c.id = d.collection_id
     WHERE d.id IN (SELECT value FROM json_each(?))`,
  );

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
      const out = new Map<string, TermPostings>();
      for (const term of terms) {
        const p: TermPostings = { docs: [], title: [], body: [] };
        for (const cid of ids)
          for (const [doc, t, b] of postingRows.values(collectionTerm(cid, term)) as [number, number, number][]) {
            p.docs.push(doc);
            p.title.push(t);
            p.body.push(b);
          }
        out.set(term, p);
      }
      return out;
    },
    documentFrequencies(terms, ids) {
      // A document is in one collection: its collections' counts add up.
      return new Map(
        terms.map((t) => [t, ids.reduce((n, cid) => n + (frequency.get(collectionTerm(cid, t))?.doc ?? 0), 0)]),
      );
    },
    lengths(ids): DocumentLengths {
      const rows = sizes.values(JSON.stringify(ids)) as [number, number, number, number][];
      const out: DocumentLengths = {
        ids: new Int32Array(rows.length),
        collection: new Int32Array(rows.length),
        title: new Int32Array(rows.length),
        body: new Int32Array(rows.length),
      };
      rows.forEach(([id, cid, t, b], i) => {
        out.ids[i] = id;
        out.collection[i] = cid;
        out.title[i] = t;
        out.body[i] = b;
      });
      return out;
    },
    // Split again from the documents' text (a few, feedback's): postings have no index by document.
    termCounts: (documents) => analyzed().termCounts(storedTexts.all(JSON.stringify(documents))),
    documents: (ids) => docsById.all(JSON.stringify(ids)).map(toDocumentRow),
  };
}
