import type { SQL } from "bun";
import type { TimelineEvent } from "../types.ts";

/** The `run_events` table: a run's timeline, written once when the run finishes (runs.finish). */
export function pgRunEvents(sql: SQL) {
  return {
    /** Only inside runs.finish's transaction; one statement for the whole timeline. */
    async insertAll(tx: SQL, runId: string, events: TimelineEvent[]): Promise<void> {
      if (!events.length) return;
      const rows = events.map((e) => ({ run_id: runId, at_ms: e.atMs, type: e.type, data: JSON.stringify(e.data) }));
      await tx`INSERT INTO run_events ${tx(rows, "run_id", "at_ms", "type", "data")}`;
    },
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
