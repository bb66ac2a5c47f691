import type { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCheckpointer } from "../../../src/store/sqlite/checkpointer.ts";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/open.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/**
 * The server's WAL checkpoints on a thread of their own
 * (docs/decisions/0110-the-first-event-before-the-engine.md). What the thread did is seen in the
 * database file: while the server's connection doesn't checkpoint, only a checkpoint makes the
 * file grow. Every wait below is for a state, bounded, never a duration asserted.
 */
const dir = mkdtempSync(join(tmpdir(), "rq-checkpointer-"));
const stores: SqliteStore[] = [];
afterAll(() => {
  for (const s of stores) s.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = (name: string, o?: { checkpointThread?: boolean }) => {
  const path = join(dir, `${name}.db`);
  const s = openSqliteStore(path, o);
  stores.push(s);
  return { s, path };
};

const autocheckpoint = (db: Database) =>
  (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

/** Waits for `ok()`, polling; fails naming `what` if it never holds. */
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (ok()) return;
    await Bun.sleep(5);
  }
  throw new Error(`never: ${what}`);
}

/** Some 600 pages of WAL in as many commits, in a scratch table. */
function write(db: Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS scratch (x BLOB)");
  for (let i = 0; i < 300; i++) db.run("INSERT INTO scratch VALUES (randomblob(6000))");
}

describe("the WAL checkpoint thread", () => {
  test("with the thread the server's connection stops checkpointing, and the thread moves the WAL into the database file", async () => {
    const { s, path } = open("thread", { checkpointThread: true });
    await until("the thread is ready", () => autocheckpoint(s.raw) === 0);
    const before = statSync(path).size;
    write(s.raw);
    // The server's connection can't have checkpointed: only the thread makes the file grow.
    await until("the database file grows", () => statSync(path).size > before);
    expect(autocheckpoint(s.raw)).toBe(0);
    expect(s.raw.query("SELECT COUNT(*) AS n FROM scratch").get()).toEqual({ n: 300 });
  });

  test("without the option SQLite's own checkpoints stay (1000 pages)", async () => {
    const { s: without } = open("no-thread");
    // Opened after: by the time its thread is ready, one started for the first would be too.
    const { s: withThread } = open("beside", { checkpointThread: true });
    await until("the other store's thread is ready", () => autocheckpoint(withThread.raw) === 0);
    expect(autocheckpoint(without.raw)).toBe(1000);
    const memory = openSqliteStore(":memory:", { checkpointThread: true });
    stores.push(memory);
    expect(autocheckpoint(memory.raw)).toBe(1000);
  });

  test("a thread that can't start leaves the connection checkpointing on its own, and the store works", async () => {
    const { s, path } = open("bad-url");
    // Not SQLite's default, so that the fall back is seen setting it.
    s.raw.exec("PRAGMA wal_autocheckpoint = 77;");
    const stop = startCheckpointer(s.raw, "file:///nonexistent.ts");
    await until("the connection checkpoints again", () => autocheckpoint(s.raw) === 1000);
    const before = statSync(path).size;
    write(s.raw);
    // 600 pages past 1,000 with the migrations': the connection's own checkpoint.
    write(s.raw);
    expect(statSync(path).size).toBeGreaterThan(before);
    expect(await s.accounts.byEmail("nobody@x.org")).toBeNull();
    stop();
  });

  test("a thread that fails after it started hands the checkpoints back to the connection", async () => {
    const { s } = open("fails");
    s.raw.exec("PRAGMA wal_autocheckpoint = 77;");
    const stop = startCheckpointer(s.raw, new URL("../../fixtures/failing-checkpoint-worker.ts", import.meta.url));
    await until("the connection checkpoints again", () => autocheckpoint(s.raw) === 1000);
    stop();
  });

  test("close stops the thread: it ends, and the file opens again with a thread of its own", async () => {
    // The thread is seen ending through the platform's Worker, which reports it.
    const started: Worker[] = [];
    const Platform = globalThis.Worker;
    globalThis.Worker = class extends Platform {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        started.push(this);
      }
    };
    let s: SqliteStore;
    let path: string;
    try {
      ({ s, path } = open("reopen", { checkpointThread: true }));
    } finally {
      globalThis.Worker = Platform;
    }
    expect(started).toHaveLength(1);
    let ended = false;
    started[0]!.addEventListener("close", () => {
      ended = true;
    });
    await until("the thread is ready", () => autocheckpoint(s.raw) === 0);
    write(s.raw);
    expect(ended).toBe(false);
    s.close();
    stores.splice(stores.indexOf(s), 1);
    await until("the thread ends", () => ended);
    const again = openSqliteStore(path, { checkpointThread: true });
    stores.push(again);
    expect(again.raw.query("SELECT COUNT(*) AS n FROM scratch").get()).toEqual({ n: 300 });
    await until("the new thread is ready", () => autocheckpoint(again.raw) === 0);
  });
});
