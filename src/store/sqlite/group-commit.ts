import type { Database } from "bun:sqlite";

interface Pending {
  work: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Writes asked for in one turn of the event loop, committed together
 * (docs/decisions/0110-the-first-event-before-the-engine.md). A commit costs the same whether
 * it holds one run or a hundred: the pages it touches (the table's last leaf, its indexes, the
 * month's counter) are written to the WAL once per commit. A crowd's acceptances and finishes
 * share one IMMEDIATE transaction on the next turn; each write runs in a savepoint of its own,
 * in the order asked, so one failing rolls back only itself and every write sees those before
 * it (an allowance is never passed, an Idempotency-Key's second use finds the first). If the
 * commit itself fails (another process holds the database past the busy timeout), every write
 * of the batch fails with it, as each would have alone.
 */
/** Writes per commit at most: enough to spread a commit's cost, few enough that nobody waits long for it. */
const MAX_BATCH = 64;
/**
 * A write this long after the last commit is alone (no crowd): committed as soon as the caller's
 * code yields, not on the loop's next turn, which may come late behind other work.
 */
const ALONE_MS = 0.5;

export function groupCommit(
  db: Database,
  now: () => number = () => performance.now(),
): <T>(work: () => T) => Promise<T> {
  let queue: Pending[] = [];
  // A transaction function called inside a transaction runs as a savepoint.
  const savepoint = db.transaction((work: () => unknown) => work());
  const commit = db.transaction((batch: Pending[]) =>
    batch.map((p) => {
      try {
        return { ok: true as const, value: savepoint(p.work) };
      } catch (error) {
        return { ok: false as const, error };
      }
    }),
  );
  let last = Number.NEGATIVE_INFINITY;
  const flush = () => {
    if (!queue.length) return;
    const batch = queue;
    queue = [];
    last = now();
    let outcomes: ReturnType<typeof commit>;
    try {
      outcomes = commit.immediate(batch);
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
  };
  return <T>(work: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (!queue.length) {
        if (now() - last >= ALONE_MS) queueMicrotask(flush);
        else setImmediate(flush);
      }
      queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      // A turn that handles a whole crowd would hold the first callers' answers until its end.
      if (queue.length >= MAX_BATCH) flush();
    });
}
