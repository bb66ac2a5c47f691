import type { SQL } from "bun";
import type { UsageDay } from "../../contract/console.ts";
import { periodOf } from "../../util/time.ts";
import type { Acceptance, RecentRun, RunRow, RunsTable } from "../types.ts";
import type { pgRunEvents } from "./run-events.ts";
import { pgRunRetention } from "./run-retention.ts";

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

/** rq_accept_run's refusal when a concurrent call took the month's last run (db/pg/0007_run_acceptance.sql). */
const USED_UP = "RQ429";

/**
 * The `runs` table. Acceptance is one call of `rq_accept_run` (db/pg/0007_run_acceptance.sql),
 * one round trip and one implicit transaction: the account's plan, the key still active, the
 * idempotency key's advisory lock and lookup, the run row, the claim, and last the
 * conditional counter bump, so a refusal writes nothing, no spread of calls over instances
 * passes the allowance, and the account's counter row is locked only until the commit.
 * Finishing is one call of `rq_finish_run`: the outcome and the whole timeline in one commit;
 * it may be repeated (docs/decisions/0099-postgres-outage.md).
 */
export function pgRuns(sql: SQL, events: ReturnType<typeof pgRunEvents>): RunsTable {
  let lastSweep = 0;
  return {
    async accept(r, allowances, claim): Promise<Acceptance> {
      const keyed = claim && r.accountId !== null ? claim : null;
      const at = r.createdAt.getTime();
      // Expired keys go at most once a minute per instance: the table holds about a day of keys.
      const sweep = keyed !== null && at - lastSweep > 60_000;
      if (sweep) lastSweep = at;
      try {
        const [a] = await sql<{ outcome: string; existing_run: string | null; same_query: boolean | null }[]>`
          SELECT outcome, existing_run, same_query FROM rq_accept_run(${r.id}, ${r.accountId}, ${r.keyId}, ${r.keyPrefix},
            ${r.origin}, ${r.endpoint}, ${r.query}, ${periodOf(r.createdAt)}, ${r.createdAt.toISOString()}, ${r.instanceId},
            ${allowances}::jsonb, ${keyed?.key ?? null}, ${keyed?.queryHash ?? null}, ${keyed?.since.toISOString() ?? null},
            ${sweep})`;
        switch (a?.outcome) {
          case "accepted":
            return { accepted: true };
          case "used_up":
            return { accepted: false };
          case "existing":
            return { accepted: false, existing: a.existing_run!, sameQuery: a.same_query === true };
          case "no_account":
          case "key_inactive":
            return { accepted: false, refused: a.outcome };
          default:
            throw new Error(`rq_accept_run answered ${a?.outcome}`);
        }
      } catch (e) {
        if ((e as { errno?: string }).errno === USED_UP) return { accepted: false };
        throw e;
      }
    },
    async finish(runId, o, timeline) {
      // A retry after a commit whose answer was lost with the connection replaces what it wrote
      // (runs/record-outcome.ts); the outcome also replaces an `interrupted` mark made meanwhile.
      const rows = timeline.map((e) => ({ at_ms: e.atMs, type: e.type, data: JSON.stringify(e.data) }));
      await sql`SELECT rq_finish_run(${runId}, ${o.status}, ${o.answer}, ${JSON.stringify(o.sources)},
        ${JSON.stringify(o.errors)}, ${o.writer}, ${o.tokensIn}, ${o.tokensOut}, ${o.latencyMs}, ${new Date().toISOString()},
        ${o.verification ? JSON.stringify(o.verification) : null}, ${rows}::jsonb)`;
    },
    // The leases' clock is the database's (instances.ts): a live instance's runs are never touched.
    markInterrupted: async (error) =>
      (
        await sql`UPDATE runs SET status = 'error', errors = ${JSON.stringify([error])}, finished_at = ${new Date().toISOString()}
          WHERE status = 'running'
            AND (instance_id IS NULL OR instance_id NOT IN (SELECT id FROM instances WHERE expires_at > now()))`
      ).count,
    async withEvents(accountId, runId) {
      const [r] = await sql<
        Raw[]
      >`SELECT id, account_id AS "accountId", key_prefix AS "keyPrefix", origin, endpoint, query,
        status, writer, answer, sources, errors, verification, tokens_in AS "tokensIn", tokens_out AS "tokensOut",
        latency_ms AS "latencyMs", created_at AS "createdAt", finished_at AS "finishedAt"
        FROM runs WHERE id = ${runId} AND account_id = ${accountId}`;
      if (!r) return null;
      return { run: parsedRun(r), events: await events.forRun(runId) };
    },
    pageByAccount: async (accountId, after, limit) =>
      (
        await sql<Raw[]>`SELECT id, account_id AS "accountId", key_prefix AS "keyPrefix", origin, endpoint, query,
        status, writer, answer, sources, errors, verification, tokens_in AS "tokensIn", tokens_out AS "tokensOut",
        latency_ms AS "latencyMs", created_at AS "createdAt", finished_at AS "finishedAt"
        FROM runs WHERE account_id = ${accountId}
          AND (${after?.createdAt ?? null}::text IS NULL OR (created_at, id) > (${after?.createdAt ?? ""}, ${after?.id ?? ""}))
        ORDER BY created_at, id LIMIT ${limit}`
      ).map(parsedRun),
    // Spread: the driver's result arrays carry its metadata (count, command) as extra fields.
    perDay: async (accountId, period) => [
      // The runs still held, and those the retention sweep deleted (run_tallies), counted alike.
      ...(await sql<UsageDay[]>`SELECT date, sum(calls)::int AS calls, sum(ok)::int AS ok, sum(error)::int AS error
        FROM (SELECT substr(created_at, 1, 10) AS date, count(*) AS calls,
            count(*) FILTER (WHERE status = 'ok') AS ok, count(*) FILTER (WHERE status = 'error') AS error
            FROM runs WHERE account_id = ${accountId} AND period = ${period} GROUP BY date
          UNION ALL SELECT date, calls, ok, error FROM run_tallies WHERE account_id = ${accountId} AND period = ${period}) t
        GROUP BY date ORDER BY date`),
    ],
    recent: async (accountId, limit) => [
      ...(await sql<
        RecentRun[]
      >`SELECT id AS request_id, created_at, status, origin, endpoint, key_prefix, latency_ms, query
        FROM runs WHERE account_id = ${accountId} ORDER BY created_at DESC, seq DESC LIMIT ${limit}`),
    ],
    deleteRunsBefore: pgRunRetention(sql),
  };
}
