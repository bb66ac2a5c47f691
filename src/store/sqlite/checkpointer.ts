import type { Database } from "bun:sqlite";
import { endThread, newThread } from "../../util/worker-pool/pool-census.ts";
import { workerUrl } from "../../util/worker-url.ts";

/** How often the thread moves the WAL's pages into the database file. */
const EVERY_MS = 100;
/** SQLite's own default: a commit that finds this many pages in the WAL checkpoints on its own. */
const AUTO_PAGES = 1000;

/**
 * WAL checkpoints on a thread of their own (docs/decisions/0110-the-first-event-before-the-engine.md).
 * By default the commit that finds 1,000 pages in the WAL copies them into the database file
 * and syncs it, on the thread that committed: the server's, which then answers nobody for
 * 5–120 ms (measured: an acceptance's commit p50 0.06 ms, p99 5.7 ms, max 123 ms). Here the
 * server's connection never checkpoints while the thread runs; the thread checkpoints every
 * EVERY_MS without waiting for readers or the writer (PASSIVE). If the thread cannot start or
 * fails, the connection checkpoints on its own again, as before. Returns the stop.
 */
export function startCheckpointer(
  db: Database,
  url: string | URL = workerUrl("store/sqlite/checkpoint-worker.ts"),
): () => void {
  let worker: Worker | undefined;
  const fallBack = () => {
    db.exec(`PRAGMA wal_autocheckpoint = ${AUTO_PAGES};`);
    if (worker) endThread(worker);
    worker = undefined;
  };
  try {
    worker = newThread(new Worker(url, { smol: true } as WorkerOptions));
  } catch {
    return () => {};
  }
  worker.onmessage = (e: MessageEvent<{ type: "ready" | "error"; message?: string }>) => {
    if (e.data.type === "ready") db.exec("PRAGMA wal_autocheckpoint = 0;");
    else fallBack();
  };
  worker.onerror = (e) => {
    e.preventDefault?.();
    fallBack();
  };
  // The thread must not keep a process alive that has nothing else to do.
  (worker as Worker & { unref(): void }).unref();
  worker.postMessage({ path: db.filename, everyMs: EVERY_MS });
  return () => {
    if (worker) endThread(worker);
    worker = undefined;
  };
}
