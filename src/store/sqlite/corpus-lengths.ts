import type { Database } from "bun:sqlite";
import type { FieldLengths } from "../../corpus/search/bm25f.ts";

export interface LengthsSnapshot {
  /** Collection id of each document, by the store's document id (0 for no such document). */
  collection: Int32Array;
  /** Lengths and averages over one collection, or over all of them for null. */
  of(collectionId: number | null): FieldLengths;
}

/**
 * Every document's title and body length in index tokens, from FTS5's own docsize table
 * (one varint per column), held in memory: BM25 needs the length of each matching document,
 * and one read per document would cost more than the search. Read again whenever the
 * database changed — through this connection (the store calls `changed`) or another
 * (PRAGMA data_version).
 */
export function documentLengths(db: Database) {
  const version = db.prepare<{ data_version: number }, []>("PRAGMA data_version");
  const rows = db.prepare<unknown, []>(
    "SELECT s.id, s.sz, d.collection_id FROM corpus_docs_fts_docsize s JOIN corpus_documents d ON d.id = s.id",
  );
  let seen = -1;
  let snap: LengthsSnapshot | null = null;

  function load(): LengthsSnapshot {
    const all = rows.values() as [number, Uint8Array, number][];
    const max = all.reduce((m, r) => Math.max(m, r[0]), 0);
    const title = new Int32Array(max + 1);
    const body = new Int32Array(max + 1);
    const collection = new Int32Array(max + 1);
    const sums = new Map<number, [number, number, number]>();
    for (const [id, sz, cid] of all) {
      const [t = 0, b = 0] = varints(sz);
      title[id] = t;
      body[id] = b;
      collection[id] = cid;
      const s = sums.get(cid) ?? [0, 0, 0];
      sums.set(cid, [s[0] + 1, s[1] + t, s[2] + b]);
    }
    const total = [...sums.values()].reduce((a, s) => [a[0] + s[0], a[1] + s[1], a[2] + s[2]], [0, 0, 0]);
    const views = new Map<number | null, FieldLengths>();
    const view = (s: number[]): FieldLengths => ({
      title: (d) => title[d] ?? 0,
      body: (d) => body[d] ?? 0,
      docs: s[0]!,
      avgTitle: s[0] ? s[1]! / s[0] : 0,
      avgBody: s[0] ? s[2]! / s[0] : 0,
    });
    return {
      collection,
      of(cid) {
        let v = views.get(cid);
        if (!v) {
          v = view(cid === null ? total : (sums.get(cid) ?? [0, 0, 0]));
          views.set(cid, v);
        }
        return v;
      },
    };
  }

  return {
    changed() {
      snap = null;
    },
    current(): LengthsSnapshot {
      const key = version.get()!.data_version;
      if (!snap || key !== seen) {
        snap = load();
        seen = key;
      }
      return snap;
    },
  };
}

/** SQLite's big-endian varints, as FTS5 writes them in the docsize table. */
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
