import type { CorpusDocumentInput, CorpusPutOutcome, Store } from "../../store/types.ts";

/**
 * What one transaction of an upload's import holds on SQLite. There a write runs on the
 * server's own thread and holds the one writer: a batch of the importer's size (hundreds of
 * documents, megabytes of text) kept every other request waiting for it — a run's acceptance,
 * and so its first event, among them (`bun run bench 9.`). Slices this small take a few
 * milliseconds each, and the event loop turns between them. Each document is still written
 * whole, in one transaction. PostgreSQL writes off this thread: its batches stay whole.
 */
export const SLICE = { docs: 16, chars: 24_000 } as const;

/** The documents in slices: at most `limit.docs` each, and `limit.chars` unless one document alone is longer. */
export function slices(
  docs: CorpusDocumentInput[],
  limit: { docs: number; chars: number } = SLICE,
): CorpusDocumentInput[][] {
  const out: CorpusDocumentInput[][] = [];
  let cur: CorpusDocumentInput[] = [];
  let chars = 0;
  for (const d of docs) {
    const n = d.passages.reduce((s, p) => s + p.length, 0);
    if (cur.length && (cur.length >= limit.docs || chars + n > limit.chars)) {
      out.push(cur);
      cur = [];
      chars = 0;
    }
    cur.push(d);
    chars += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** store.corpus.put in slices on SQLite, yielding to waiting requests between them; whole elsewhere. */
export async function slicedPut(
  store: Store,
  collectionId: number,
  docs: CorpusDocumentInput[],
  onStored: (part: CorpusDocumentInput[]) => void,
): Promise<CorpusPutOutcome[]> {
  const parts = store.backend === "sqlite" ? slices(docs) : [docs];
  const out: CorpusPutOutcome[] = [];
  for (const [i, part] of parts.entries()) {
    if (i) await new Promise((r) => setImmediate(r));
    out.push(...(await store.corpus.put(collectionId, part)));
    onStored(part);
  }
  return out;
}
