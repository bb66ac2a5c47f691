import type { SQL } from "bun";
import type { FieldLengths } from "../../corpus/search/bm25f.ts";
import { type PostingsMemory, rememberPostings } from "../../corpus/search/postings-memory.ts";

/**
 * What an instance remembers of the collections between searches: every document's field
 * lengths and collection (BM25F needs the length of each matching document, and one read per
 * document would cost more than the search), document frequencies and recent postings. It
 * holds while the collections' versions (corpus-index.ts, touchCollection) are unchanged —
 * a write on any instance changes them, and the next search here reads everything again.
 */
export interface Snapshot extends PostingsMemory {
  version: string;
  /** Collection id of each document by its id; 0 for none (or one written after this snapshot). */
  collection: Int32Array;
  of(collectionId: number | null): FieldLengths;
  df: Map<string, number>;
}

export function corpusSnapshots(sql: SQL) {
  let snap: Snapshot | null = null;

  async function load(version: string): Promise<Snapshot> {
    const rows =
      (await sql`SELECT id, collection_id, title_len, body_len FROM corpus_documents`.values()) as number[][];
    const max = rows.reduce((m, r) => Math.max(m, r[0]!), 0);
    const title = new Int32Array(max + 1);
    const body = new Int32Array(max + 1);
    const collection = new Int32Array(max + 1);
    const sums = new Map<number | null, [number, number, number]>([[null, [0, 0, 0]]]);
    for (const [id, cid, t, b] of rows as [number, number, number, number][]) {
      title[id] = t;
      body[id] = b;
      collection[id] = cid;
      for (const key of [cid, null]) {
        const s = sums.get(key) ?? [0, 0, 0];
        sums.set(key, [s[0] + 1, s[1] + t, s[2] + b]);
      }
    }
    return {
      version,
      collection,
      of(cid) {
        const [docs, t, b] = sums.get(cid) ?? [0, 0, 0];
        return {
          title: (d) => title[d] ?? 0,
          body: (d) => body[d] ?? 0,
          docs,
          avgTitle: docs ? t / docs : 0,
          avgBody: docs ? b / docs : 0,
        };
      },
      df: new Map(),
      postings: new Map(),
      entries: 0,
    };
  }

  return {
    /** The snapshot of the collections as they are now: the remembered one, or a new one if they changed. */
    async current(): Promise<Snapshot> {
      const [{ v }] =
        await sql`SELECT coalesce(string_agg(id || ':' || version, ',' ORDER BY id), '') AS v FROM corpus_collections`;
      if (snap && snap.version === v) return snap;
      const fresh = await load(v as string);
      snap = fresh;
      return fresh;
    },
    /** Remembers a term's postings, forgetting the least recently used past the cap. */
    remember: rememberPostings,
  };
}
