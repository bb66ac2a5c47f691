import type { Database } from "bun:sqlite";
import type { Plan } from "../../contract/auth.ts";
import type { UsageDay } from "../../contract/console.ts";
import { periodOf } from "../../util/time.ts";
import type { Acceptance, Allowances, IdempotencyClaim, NewRun, RecentRun, RunRow, RunsTable } from "../types.ts";
import { groupCommit } from "./group-commit.ts";
import type { sqliteIdempotencyKeys } from "./idempotency-keys.ts";
import type { sqliteRunCounters } from "./run-counters.ts";
import type { sqliteRunEvents } from "./run-events.ts";
import { sqliteRunRetention } from "./run-retention.ts";

type Raw = Omit<RunRow, "sources" | "errors" | "verification"> & {
  sources: string | null;
  errors: string | null;
  verification: string | null;
};

/** A row with its JSON columns read. */
const parsedRun = (r: Raw): RunRow => ({
  ...r,
  sources: r.sources ? JSON.parse(r.sources) : [],
  verification: r.verification ? JSON.parse(r.verification) : null,
  errors: r.errors ? JSON.parse(r.errors) : [],
});

const COLUMNS = `id, account_id AS accountId, key_prefix AS keyPrefix, origin, endpoint, query, status, writer, answer, sources, errors, verification,
  tokens_in AS tokensIn, tokens_out AS tokensOut, latency_ms AS latencyMs, created_at AS createdAt, finished_at AS finishedAt`;

/**
 * The `runs` table. Acceptance bumps the month's counter and writes the row in one
 * IMMEDIATE transaction (the write lock is taken at BEGIN, so concurrent calls in any
 * process serialise and the allowance can't be exceeded); finishing writes the outcome
 * and the whole timeline in one commit instead of one per event. The acceptances and
 * finishes of one turn of the event loop share that transaction (group-commit.ts).
 */
export function sqliteRuns(
  db: Database,
  counters: ReturnType<typeof sqliteRunCounters>,
  events: ReturnType<typeof sqliteRunEvents>,
  idempotency: ReturnType<typeof sqliteIdempotencyKeys>,
): RunsTable {
  const insert =
    db.prepare(`INSERT INTO runs (id, account_id, key_id, key_prefix, origin, endpoint, query, period, status, created_at, instance_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)`);
  const finish =
    db.prepare(`UPDATE runs SET status = ?, answer = ?, sources = ?, errors = ?, writer = ?, tokens_in = ?, tokens_out = ?,
    latency_ms = ?, finished_at = ?, verification = ? WHERE id = ?`);
  // Timestamps are all toISOString(), so text order is time order.
  const interrupt = db.prepare(`UPDATE runs SET status = 'error', errors = ?1, finished_at = ?2
    WHERE status = 'running' AND (instance_id IS NULL OR instance_id NOT IN (SELECT id FROM instances WHERE expires_at > ?2))`);
  const owned = db.prepare<Raw, [string, string]>(`SELECT ${COLUMNS} FROM runs WHERE id = ? AND account_id = ?`);
  // The runs still held, and those the retention sweep deleted (run_tallies), counted alike.
  const perDay = db.prepare<
    UsageDay,
    [string, string]
  >(`SELECT date, SUM(calls) AS calls, SUM(ok) AS ok, SUM(error) AS error
    FROM (SELECT substr(created_at, 1, 10) AS date, COUNT(*) AS calls, SUM(status = 'ok') AS ok, SUM(status = 'error') AS error
        FROM runs WHERE account_id = ?1 AND period = ?2 GROUP BY date
      UNION ALL SELECT date, calls, ok, error FROM run_tallies WHERE account_id = ?1 AND period = ?2)
    GROUP BY date ORDER BY date`);
  const recent = db.prepare<
    RecentRun,
    [string, number]
  >(`SELECT id AS request_id, created_at, status, origin, endpoint, key_prefix, latency_ms, query
    FROM runs WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`);

  const planOf = db.prepare<{ plan: Plan }, [string]>("SELECT plan FROM accounts WHERE id = ?");
  const keyActive = db.prepare<{ ok: 1 }, [string]>("SELECT 1 AS ok FROM api_keys WHERE id = ? AND status = 'active'");

  const acceptTx = db.transaction(
    (r: NewRun, allowances: Allowances | null, claim: IdempotencyClaim | null): Acceptance => {
      const plan = r.accountId === null ? null : planOf.get(r.accountId)?.plan;
      if (plan === undefined) return { accepted: false, refused: "no_account" };
      // The key passed the check before the body was read; a revocation since then still counts.
      if (r.keyId !== null && !keyActive.get(r.keyId)) return { accepted: false, refused: "key_inactive" };
      if (claim && r.accountId !== null) {
        const found = idempotency.find(r.accountId, claim);
        if (found) return { accepted: false, existing: found.runId, sameQuery: found.queryHash === claim.queryHash };
      }
      const period = periodOf(r.createdAt);
      // A fresh month's first bump inserts without its WHERE: an allowance of 0 is refused here.
      const limit = allowances && plan !== null ? allowances[plan] : null;
      if (limit !== null && (limit <= 0 || !counters.bump(r.accountId!, period, limit))) return { accepted: false };
      insert.run(
        r.id,
        r.accountId,
        r.keyId,
        r.keyPrefix,
        r.origin,
        r.endpoint,
        r.query,
        period,
        r.createdAt.toISOString(),
        r.instanceId,
      );
      if (claim && r.accountId !== null) idempotency.claim(r.accountId, claim, r.id, r.createdAt);
      return { accepted: true };
    },
  );
  const finishTx = db.transaction(
    (runId: string, o: Parameters<RunsTable["finish"]>[1], timeline: Parameters<RunsTable["finish"]>[2]) => {
      events.insertAll(runId, timeline);
      finish.run(
        o.status,
        o.answer,
        JSON.stringify(o.sources),
        JSON.stringify(o.errors),
        o.writer,
        o.tokensIn,
        o.tokensOut,
        o.latencyMs,
        new Date().toISOString(),
        o.verification ? JSON.stringify(o.verification) : null,
        runId,
      );
    },
  );

  // A crowd's acceptances and finishes share commits (group-commit.ts).
  const page = db.prepare<Raw, [string, string | null, string | null, number]>(
    `SELECT ${COLUMNS} FROM runs WHERE account_id = ?1 AND (?2 IS NULL OR (created_at, id) > (?2, ?3))
     ORDER BY created_at, id LIMIT ?4`,
  );
  const together = groupCommit(db);
  return {
    // In the group's IMMEDIATE transaction: the write lock at BEGIN, so the reads in it and the counted write see one state.
    accept: (run, allowances, claim) => together(() => acceptTx(run, allowances, claim ?? null)),
    finish(runId, outcome, timeline) {
      return together(() => finishTx(runId, outcome, timeline));
    },
    markInterrupted: (error) => interrupt.run(JSON.stringify([error]), new Date().toISOString()).changes,
    withEvents(accountId, runId) {
      const r = owned.get(runId, accountId);
      if (!r) return null;
      return { run: parsedRun(r), events: events.forRun(runId) };
    },
    perDay: (accountId, period) => perDay.all(accountId, period),
    pageByAccount: (accountId, after, limit) =>
      page.all(accountId, after?.createdAt ?? null, after?.id ?? null, limit).map(parsedRun),
    recent: (accountId, limit) => recent.all(accountId, limit),
    deleteRunsBefore: sqliteRunRetention(db),
  };
}
