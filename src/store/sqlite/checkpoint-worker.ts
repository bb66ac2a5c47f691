// The WAL checkpoint thread of a SQLite store (src/store/sqlite/checkpointer.ts): its own
// connection, a PASSIVE checkpoint on every tick (it never waits for the server's writer);
// when the WAL has grown past RESTART_FRAMES, a RESTART checkpoint, so the next commit starts
// the WAL over instead of growing it for good. RESTART holds new commits back while it runs,
// but the PASSIVE one before it has left it little to copy.
import { Database } from "bun:sqlite";

declare const self: Worker;

/** 16,000 pages (64 MB at SQLite's 4 KB page): rare enough under the heaviest load measured (a RESTART holds commits back, so it must be rare). */
const RESTART_FRAMES = 16_000;

interface Start {
  path: string;
  everyMs: number;
}

self.onmessage = (e: MessageEvent<Start>) => {
  const db = new Database(e.data.path, { strict: true });
  db.exec("PRAGMA busy_timeout = 5000;");
  // This connection's own commits (none) must not checkpoint on their own either.
  db.exec("PRAGMA wal_autocheckpoint = 0;");
  const passive = db.prepare<{ log: number }, []>("PRAGMA wal_checkpoint(PASSIVE)");
  const restart = db.prepare("PRAGMA wal_checkpoint(RESTART)");
  setInterval(() => {
    try {
      if ((passive.get()?.log ?? 0) > RESTART_FRAMES) restart.get();
    } catch (err) {
      // A busy database: the next tick tries again. Anything else is reported.
      if (!String(err).includes("SQLITE_BUSY")) postMessage({ type: "error", message: String(err) });
    }
  }, e.data.everyMs);
  postMessage({ type: "ready" });
};
