import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { withStorableWrites } from "../storable-writes.ts";
import type { Store } from "../types.ts";
import { sqliteAccounts } from "./accounts.ts";
import { sqliteApiKeys } from "./api-keys.ts";
import { sqliteAuditEvents, sqliteAuditWriter } from "./audit-events.ts";
import { startCheckpointer } from "./checkpointer.ts";
import { sqliteCorpus } from "./corpus.ts";
import { sqliteCorpusIndex } from "./corpus-index-reads.ts";
import { sqliteEmailConfirmations } from "./email-confirmations.ts";
import { sqliteIdempotencyKeys } from "./idempotency-keys.ts";
import { sqliteIdentities } from "./identities.ts";
import { sqliteInstances } from "./instances.ts";
import { migrate } from "./migrate.ts";
import { sqliteRunCounters } from "./run-counters.ts";
import { sqliteRunEvents } from "./run-events.ts";
import { sqliteRuns } from "./runs.ts";
import { sqliteSessions } from "./sessions.ts";
import { sqliteSettings } from "./settings.ts";
import { cutLongTitles } from "./title-cuts.ts";
import { sqliteUploads } from "./uploads.ts";

/** The SQLite store; `raw` is the connection, for tests and the bench only. */
export type SqliteStore = Store & { readonly raw: Database };

/**
 * Opens (creating its directory) and migrates the SQLite database. WAL and a busy timeout
 * on every connection, so concurrent writers wait instead of failing. Statements are
 * prepared once here, per store.
 */
export function openSqliteStore(path: string, o: { checkpointThread?: boolean } = {}): SqliteStore {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL;");
  db.exec("PRAGMA busy_timeout = 5000;");
  db.exec("PRAGMA foreign_keys = ON;");
  db.exec("PRAGMA synchronous = NORMAL;");
  migrate(db);
  cutLongTitles(db);
  // The server's: its thread must never stop to checkpoint (src/store/sqlite/checkpointer.ts).
  const stopCheckpoints = o.checkpointThread && path !== ":memory:" ? startCheckpointer(db) : () => {};
  const counters = sqliteRunCounters(db);
  const audit = sqliteAuditWriter(db);
  const accounts = sqliteAccounts(db, audit);
  const corpusIndex = sqliteCorpusIndex(db);
  return withStorableWrites({
    backend: "sqlite",
    raw: db,
    accounts,
    sessions: sqliteSessions(db, audit),
    apiKeys: sqliteApiKeys(db, audit),
    runs: sqliteRuns(db, counters, sqliteRunEvents(db), sqliteIdempotencyKeys(db)),
    runCounters: counters,
    settings: sqliteSettings(db),
    identities: sqliteIdentities(db, accounts, audit),
    emailConfirmations: sqliteEmailConfirmations(db, audit),
    instances: sqliteInstances(db),
    corpus: sqliteCorpus(db, corpusIndex.changed, audit),
    uploads: sqliteUploads(db, audit),
    audit: sqliteAuditEvents(db, audit),
    corpusIndex,
    corpusReaderSource: path === ":memory:" || path === "" ? null : { backend: "sqlite", path: db.filename },
    // One host: the process's memory counts sign-in attempts (src/auth/attempts.ts).
    loginAttempts: null,
    signupBuckets: null,
    // Followers in other processes wait for the run to end and replay it from its timeline.
    runStream: null,
    ping: () => {
      db.query("SELECT 1").get();
    },
    close: () => {
      stopCheckpoints();
      db.close();
    },
  });
}
