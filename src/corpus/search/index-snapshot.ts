import type { CorpusIndex, IndexedCollection } from "../../store/corpus-index.ts";
import type { FieldLengths } from "./bm25f.ts";
import type { PostingsMemory } from "./postings-memory.ts";

/**
 * What a ranker remembers of the index between searches: every document's field lengths and
 * collection (BM25F needs the length of each matching document, and one read per document
 * would cost more than the search), document frequencies and recent postings, all over every
 * collection. It holds while the collections' versions are unchanged: a write on any
 * connection or instance changes them, and the next search reads everything again.
 */
export interface IndexSnapshot extends PostingsMemory {
  /** Every collection as the snapshot was taken. */
  collections: IndexedCollection[];
  /** Their ids, as the index's reads take them. */
  ids: number[];
  /** Collection id of each document by its id; 0 for none (or one written after this snapshot). */
  collection: Int32Array;
  /** Lengths and averages over a set of collections. */
  of(collections: number[]): FieldLengths;
  /** Document frequencies by the searched collections' ids (joined with commas), then by term. */
  df: Map<string, Map<string, number>>;
}

const stampOf = (cs: IndexedCollection[]) => cs.map((c) => `${c.id}:${c.version}`).join(",");

/**
 * The snapshots of one index: the remembered one, or a new one when the collections changed.
 * `now` is the clock a tolerated staleness is measured by (tests move it by hand).
 */
export function indexSnapshots(index: CorpusIndex, now: () => number = () => performance.now()) {
  let snap: IndexSnapshot | null = null;
  let stamp = "";
  let loadedAt = 0;

  async function load(collections: IndexedCollection[]): Promise<IndexSnapshot> {
    const ids = collections.map((c) => c.id);
    const len = await index.lengths(ids);
    const max = len.ids.reduce((m, id) => Math.max(m, id), 0);
    const title = new Int32Array(max + 1);
    const body = new Int32Array(max + 1);
    const collection = new Int32Array(max + 1);
    const sums = new Map<number, [number, number, number]>();
    len.ids.forEach((id, i) => {
      const [cid, t, b] = [len.collection[i]!, len.title[i]!, len.body[i]!];
      title[id] = t;
      body[id] = b;
      collection[id] = cid;
      const s = sums.get(cid) ?? [0, 0, 0];
      sums.set(cid, [s[0] + 1, s[1] + t, s[2] + b]);
    });
    const views = new Map<string, FieldLengths>();
    return {
      collections,
      ids,
      collection,
      of(cids) {
        const key = cids.join(",");
        let v = views.get(key);
        if (!v) {
          // Integer sums, so the averages do not depend on the order collections are added in.
          const [docs, t, b] = cids.reduce(
            (a, cid) => {
              const s = sums.get(cid) ?? [0, 0, 0];
              return [a[0] + s[0], a[1] + s[1], a[2] + s[2]];
            },
            [0, 0, 0],
          );
          v = {
            title: (d) => title[d] ?? 0,
            body: (d) => body[d] ?? 0,
            docs,
            avgTitle: docs ? t / docs : 0,
            avgBody: docs ? b / docs : 0,
          };
          views.set(key, v);
        }
        return v;
      },
      df: new Map(),
      postings: new Map(),
      entries: 0,
    };
  }

  return {
    /**
     * The snapshot to search with. With `staleMs`, one taken less than that long ago serves even
     * though the collections changed since: documents written meanwhile are left out, as those of
     * a search that came a moment earlier would be (removed ones are never returned: rows are read
     * afresh). Without it, any change means a new snapshot.
     */
    async current(staleMs = 0): Promise<IndexSnapshot> {
      const collections = await index.collections();
      const at = stampOf(collections);
      if (snap && at !== stamp && staleMs > 0 && now() - loadedAt < staleMs) return snap;
      if (!snap || at !== stamp) {
        snap = await load(collections);
        stamp = at;
        loadedAt = now();
      }
      return snap;
    },
  };
}
