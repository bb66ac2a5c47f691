import { SQL } from "bun";
import type { Logger } from "../../util/logger.ts";
import { withStorableWrites } from "../storable-writes.ts";
import type { Store } from "../types.ts";
import { pgAccounts } from "./accounts.ts";
import { pgApiKeys } from "./api-keys.ts";
import { pgAuditEvents } from "./audit-events.ts";
import { pgCorpus } from "./corpus.ts";
import { pgCorpusIndex } from "./corpus-index-reads.ts";
import { absorbDroppedConnections } from "./dropped-connections.ts";
import { pgEmailConfirmations } from "./email-confirmations.ts";
import { pgIdentities } from "./identities.ts";
import { pgInstances } from "./instances.ts";
import { pgLoginAttempts } from "./login-attempts.ts";
import { migratePostgres } from "./migrate.ts";
import { refuseSharedConnections } from "./pooler-check.ts";
import { pgRunCounters } from "./run-counters.ts";
import { pgRunEvents } from "./run-events.ts";
import { pgRunStream } from "./run-stream.ts";
import { pgRuns } from "./runs.ts";
import { pgSessions } from "./sessions.ts";
import { pgSettings } from "./settings.ts";
import { pgSignupBuckets } from "./signup-buckets.ts";
import { pgUploads } from "./uploads.ts";

/** The PostgreSQL store; `raw` is the connection pool, for tests and the bench only. */
export type PostgresStore = Store & { readonly raw: SQL };

/**
 * Connects to DATABASE_URL through Bun's own client and migrates (under an advisory lock, so
 * instances starting together migrate once; `beforeMigrating` runs first in its transaction).
 * The pool is small (DATABASE_POOL_MAX): each instance's work is short statements, and a
 * server's connection limit is shared by every instance. Statements are prepared unless
 * `prepare` is false; a pooler that would break them stops the start (pooler-check.ts).
 */
export async function openPostgresStore(
  url: string,
  o: { max?: number; prepare?: boolean; beforeMigrating?: (tx: SQL) => Promise<void>; logger?: Logger } = {},
): Promise<PostgresStore> {
  absorbDroppedConnections(o.logger);
  const prepare = o.prepare ?? true;
  const sql = new SQL(url, { max: o.max ?? 10, prepare, connectionTimeout: 10, idleTimeout: 60 });
  try {
    if (prepare) await refuseSharedConnections(url);
    await migratePostgres(sql, o.beforeMigrating);
  } catch (e) {
    await sql.close();
    throw e;
  }
  const accounts = pgAccounts(sql);
  return withStorableWrites({
    backend: "postgres",
    raw: sql,
    accounts,
    sessions: pgSessions(sql),
    apiKeys: pgApiKeys(sql),
    runs: pgRuns(sql, pgRunEvents(sql)),
    runCounters: pgRunCounters(sql),
    settings: pgSettings(sql),
    identities: pgIdentities(sql, accounts),
    emailConfirmations: pgEmailConfirmations(sql),
    instances: pgInstances(sql),
    corpus: pgCorpus(sql),
    uploads: pgUploads(sql),
    audit: pgAuditEvents(sql),
    corpusIndex: pgCorpusIndex(sql),
    // Decoding and scoring long postings holds a thread (docs/decisions/0094-searches-off-the-event-loop.md).
    corpusReaderSource: { backend: "postgres", url, prepare },
    loginAttempts: pgLoginAttempts(sql),
    signupBuckets: pgSignupBuckets(sql),
    runStream: pgRunStream(sql),
    ping: async () => {
      await sql`SELECT 1`;
    },
    close: () => sql.close(),
  });
}
