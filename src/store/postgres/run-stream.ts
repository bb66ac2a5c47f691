import type { SQL } from "bun";
import type { RunStreamTable } from "../types.ts";

/**
 * The `run_stream` table: a running run's events as they are sent, for followers on other
 * instances. runs.finish deletes a run's rows in the transaction that stores its timeline.
 */
export function pgRunStream(sql: SQL): RunStreamTable {
  return {
    async append(runId, events) {
      if (!events.length) return;
      const rows = events.map((e) => ({ seq: e.seq, event: JSON.stringify(e.event) }));
      // FOR SHARE waits for a finish under way and then sees the run no longer running, so no
      // row lands after finish deleted the others; a retried batch's rows are already there.
      await sql`INSERT INTO run_stream (run_id, seq, event)
        SELECT r.id, e.seq, e.event FROM runs r, jsonb_to_recordset(${rows}::jsonb) AS e(seq int, event text)
        WHERE r.id = ${runId} AND r.status = 'running' FOR SHARE OF r
        ON CONFLICT (run_id, seq) DO NOTHING`;
    },
    async after(runId, seq) {
      const rows = await sql`SELECT seq, event FROM run_stream WHERE run_id = ${runId} AND seq > ${seq} ORDER BY seq`;
      return rows.map((r: { seq: number; event: string }) => ({ seq: r.seq, event: JSON.parse(r.event) as unknown }));
    },
  };
}
