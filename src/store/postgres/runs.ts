import type { SQL } from "bun";
import type { UsageDay } from "../../contract/console.ts";
import { periodOf } from "../../util/time.ts";
import type { Acceptance, NewRun, RecentRun, RunRow, RunsTable } from "../types.ts";
import type { pgIdempotencyKeys } from "./idempotency-keys.ts";
import type { pgRunCounters } from "./run-counters.ts";
import type { pgRunEvents } from "./run-events.ts";

type Raw = Omit<RunRow, "sources" | "errors" | "verification"> & {
  sources: string | null;
  errors: string | null;
  verification: string | null;
};

/** Thrown inside accept's transaction to roll it back when the allowance is used up. */
const USED_UP = Symbol("used up");

/**
 * The `runs` table. Acceptance runs in one transaction: the idempotency key's advisory lock
 * and lookup, the conditional counter bump, the run row and the claim, so a refusal writes
 * nothing and no spread of calls over instances passes the allowance (run-counters.ts).
 * Finishing writes the outcome and the whole timeline in one commit, and may be repeated
 * (docs/decisions/0099-postgres-outage.md).
 */
export function pgRuns(
  sql: SQL,
  counters: ReturnType<typeof pgRunCounters>,
  events: ReturnType<typeof pgRunEvents>,
  idempotency: ReturnType<typeof pgIdempotencyKeys>,
): RunsTable {
  const insert = (db: SQL, r: NewRun) =>
    db`INSERT INTO runs (id, account_id, key_id, key_prefix, origin, endpoint, query, period, status, created_at, instance_id)
      VALUES (${r.id}, ${r.accountId}, ${r.keyId}, ${r.keyPrefix}, ${r.origin}, ${r.endpoint}, ${r.query},
        ${periodOf(r.createdAt)}, 'running', ${r.createdAt.toISOString()}, ${r.instanceId})`;

  return {
    async accept(run, limit, claim): Promise<Acceptance> {
      const counted = limit !== null && run.accountId !== null;
      if (counted && limit <= 0 && !claim) return { accepted: false };
      // Uncounted runs without a key need no transaction: a single insert.
      if (!counted && !claim) {
        await insert(sql, run);
        return { accepted: true };
      }
      try {
        return await sql.begin(async (tx): Promise<Acceptance> => {
          const keyed = claim && run.accountId !== null ? { accountId: run.accountId, claim } : null;
          if (keyed) {
            await idempotency.lock(tx, keyed.accountId, keyed.claim);
            const found = await idempotency.find(tx, keyed.accountId, keyed.claim);
            if (found)
              return { accepted: false, existing: found.runId, sameQuery: found.queryHash === keyed.claim.queryHash };
          }
          if (counted && !(await counters.bump(tx, run.accountId!, periodOf(run.createdAt), limit))) throw USED_UP;
          await insert(tx, run);
          if (keyed) await idempotency.claim(tx, keyed.accountId, keyed.claim, run.id, run.createdAt);
          return { accepted: true };
        });
      } catch (e) {
        if (e === USED_UP) return { accepted: false };
        throw e;
      }
    },
    async finish(runId, o, timeline) {
      await sql.begin(async (tx) => {
        // A retry after a commit whose answer was lost with the connection replaces what it wrote
        // (runs/record-outcome.ts); the outcome also replaces an `interrupted` mark made meanwhile.
        await tx`DELETE FROM run_events WHERE run_id = ${runId}`;
        await events.insertAll(tx, runId, timeline);
        // The events followers elsewhere read while it ran: the timeline holds them now.
        await tx`DELETE FROM run_stream WHERE run_id = ${runId}`;
        await tx`UPDATE runs SET status = ${o.status}, answer = ${o.answer}, sources = ${JSON.stringify(o.sources)},
          errors = ${JSON.stringify(o.errors)}, writer = ${o.writer}, tokens_in = ${o.tokensIn}, tokens_out = ${o.tokensOut},
          latency_ms = ${o.latencyMs}, finished_at = ${new Date().toISOString()},
          verification = ${o.verification ? JSON.stringify(o.verification) : null} WHERE id = ${runId}`;
      });
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
      const run: RunRow = {
        ...r,
        sources: r.sources ? JSON.parse(r.sources) : [],
        verification: r.verification ? JSON.parse(r.verification) : null,
        errors: r.errors ? JSON.parse(r.errors) : [],
      };
      return { run, events: await events.forRun(runId) };
    },
    // Spread: the driver's result arrays carry its metadata (count, command) as extra fields.
    perDay: async (accountId, period) => [
      ...(await sql<UsageDay[]>`SELECT substr(created_at, 1, 10) AS date, count(*)::int AS calls,
        (count(*) FILTER (WHERE status = 'ok'))::int AS ok, (count(*) FILTER (WHERE status = 'error'))::int AS error
        FROM runs WHERE account_id = ${accountId} AND period = ${period} GROUP BY date ORDER BY date`),
    ],
    recent: async (accountId, limit) => [
      ...(await sql<
        RecentRun[]
      >`SELECT id AS request_id, created_at, status, origin, endpoint, key_prefix, latency_ms, query
        FROM runs WHERE account_id = ${accountId} ORDER BY created_at DESC, seq DESC LIMIT ${limit}`),
    ],
  };
}
