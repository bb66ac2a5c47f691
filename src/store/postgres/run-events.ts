import type { SQL } from "bun";
import type { TimelineEvent } from "../types.ts";

/** The `run_events` table: a run's timeline, written once when the run finishes (rq_finish_run, runs.ts). */
export function pgRunEvents(sql: SQL) {
  return {
    async forRun(runId: string): Promise<TimelineEvent[]> {
      const rows = await sql`SELECT at_ms, type, data FROM run_events WHERE run_id = ${runId} ORDER BY id`;
      return rows.map((e: { at_ms: number; type: string; data: string }) => ({
        atMs: e.at_ms,
        type: e.type,
        data: JSON.parse(e.data) as Record<string, unknown>,
      }));
    },
  };
}
