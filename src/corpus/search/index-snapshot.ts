import type { CorpusIndex, IndexedCollection } from "../../store/corpus-index.ts";
import type { FieldLengths } from "./bm25f.ts";
import type { PostingsMemory } from "./postings-memory.ts";

/**
 * What a ranker remembers of the index between searches: the field lengths and collection of
 * every document of the collections searched so far (BM25F needs the length of each matching
 * document, and one read per document would cost more than the search), document frequencies
 * and recent postings. It holds while the collections' versions are unchanged: a write on any
 * connection or instance changes them, and the next search reads again what it needs.
 */
export interface IndexSnapshot extends PostingsMemory {
  /** Every collection as the snapshot was taken. */
  collections: IndexedCollection[];
  /** Their ids, as the index's reads take them. */
  ids: number[];
  /** Collection id of each document by its id, for the collections read so far; 0 for none (or one written after they were read). */
  collection: Int32Array;
  /**
   * Lengths and averages over a set of collections, read the first time one of them is asked for.
   * Threat: lengths read over every collection at once would make the first search after a write
   * take longer by the documents of someone else's private collection.
   */
  of(collections: number[]): Promise<FieldLengths>;
  /** Document frequencies by the searched collections' ids (joined with commas), then by term. */
  df: Map<string, Map<string, number>>;
}

const stampOf = (cs: IndexedCollection[]) => cs.map((c) => `${c.id}:${c.version}`).join(",");

/** A copy of `a` with room for index `max`, or `a` itself when it has it. */
const upTo = (a: Int32Array, max: number): Int32Array => {
  if (max < a.length) return a;
  const b = new Int32Array(max + 1);
  b.set(a);
  return b;
};

/**
 * The snapshots of one index: the remembered one, or a new one when the collections changed.
 * `now` is the clock a tolerated staleness is measured by (tests move it by hand).
 */
export function indexSnapshots(index: CorpusIndex, now: () => number = () => performance.now()) {
  let snap: IndexSnapshot | null = null;
  let stamp = "";
  let loadedAt = 0;

  function load(collections: IndexedCollection[]): IndexSnapshot {
    let title: Int32Array = new Int32Array(0);
    let body: Int32Array = new Int32Array(0);
    const sums = new Map<number, [number, number, number]>();
    const reads = new Map<number, Promise<void>>();
    const views = new Map<string, FieldLengths>();

    async function read(cids: number[]): Promise<void> {
      const len = await index.lengths(cids);
      const max = len.ids.reduce((m, id) => Math.max(m, id), 0);
      title = upTo(title, max);
      body = upTo(body, max);
      out.collection = upTo(out.collection, max);
      for (const cid of cids) sums.set(cid, [0, 0, 0]);
      len.ids.forEach((id, i) => {
        const [cid, t, b] = [len.collection[i]!, len.title[i]!, len.body[i]!];
        title[id] = t;
        body[id] = b;
        out.collection[id] = cid;
        const s = sums.get(cid)!;
        sums.set(cid, [s[0] + 1, s[1] + t, s[2] + b]);
      });
    }

    /** Reads the collections of `cids` not read yet (once, however many searches ask at a time). */
    function ensure(cids: number[]): Promise<unknown> {
      const missing = cids.filter((cid) => !reads.has(cid));
      if (missing.length) {
        const p = read(missing);
        for (const cid of missing) reads.set(cid, p);
        // A failed read is tried again by the next search.
        p.catch(() => {
          for (const cid of missing) if (reads.get(cid) === p) reads.delete(cid);
        });
      }
      return Promise.all(cids.map((cid) => reads.get(cid)));
    }

    const out: IndexSnapshot = {
      collections,
      ids: collections.map((c) => c.id),
      collection: new Int32Array(0),
      async of(cids) {
        await ensure(cids);
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
    return out;
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
        snap = load(collections);
        stamp = at;
        loadedAt = now();
      }
      return snap;
    },
  };
}
