import type { Database } from "bun:sqlite";
import type { TimelineEvent } from "../types.ts";

/** The `run_events` table: a run's timeline, written once when the run finishes (runs.finish). */
export function sqliteRunEvents(db: Database) {
  const insert = db.prepare("INSERT INTO run_events (run_id, at_ms, type, data) VALUES (?, ?, ?, ?)");
  const list = db.prepare<{ atMs: number; type: string; data: string }, [string]>(
    "SELECT at_ms AS atMs, type, data FROM run_events WHERE run_id = ? ORDER BY id",
  );
  return {
    /** Only inside runs.finish's transaction. */
    insertAll(runId: string, events: TimelineEvent[]): void {
      for (const e of events) insert.run(runId, e.atMs, e.type, JSON.stringify(e.data));
    },
    forRun: (runId: string): TimelineEvent[] =>
      list.all(runId).map((e) => ({ atMs: e.atMs, type: e.type, data: JSON.parse(e.data) as Record<string, unknown> })),
  };
}
