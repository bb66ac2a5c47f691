import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/open.ts";
import { runEvents, runs } from "../db/schema.ts";
import type { ErrorItem } from "../errors.ts";
import type { Source } from "../research/types.ts";
import { nowIso } from "../util/time.ts";


export interface RunOutcome {
  status: "ok" | "error";
  answer: string | null;
  sources: Source[];
  errors: ErrorItem[];
  writer: "llm" | "extractive" | null;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
}

/** One timeline entry, kept in memory while the run works. */
export interface TimelineEvent { atMs: number; type: string; data: Record<string, unknown> }

/**
 * Finishes a run and writes its timeline in one transaction: one commit per run instead
 * of one per event (the Console shows timelines of finished calls only). A crash loses the
 * timeline of the runs in flight; their rows still become `interrupted` at the next start.
 */
export function finishRunWithTimeline(db: Db, runId: string, o: RunOutcome, events: TimelineEvent[]): void {
  db.$client.transaction(() => {
    const insert = db.$client.query("INSERT INTO run_events (run_id, at_ms, type, data) VALUES (?, ?, ?, ?)");
    for (const e of events) insert.run(runId, e.atMs, e.type, JSON.stringify(e.data));
    finishRun(db, runId, o);
  }).immediate();
}

export function finishRun(db: Db, runId: string, o: RunOutcome): void {
  // bun:sqlite caches the compiled statement per SQL text; no query building per call.
  db.$client.query(`UPDATE runs SET status = ?, answer = ?, sources = ?, errors = ?, writer = ?, tokens_in = ?, tokens_out = ?,
    latency_ms = ?, finished_at = ? WHERE id = ?`).run(o.status, o.answer, JSON.stringify(o.sources), JSON.stringify(o.errors), o.writer,
    o.tokensIn, o.tokensOut, o.latencyMs, nowIso(), runId);
}

/** At start: runs a crash left "running" become errors with code interrupted. */
export function markInterruptedRuns(db: Db): number {
  const errors = JSON.stringify([{ code: "interrupted", message: "the run was cut short by a server shutdown or crash" }]);
  return db.$client.query("UPDATE runs SET status = 'error', errors = ?, finished_at = ? WHERE status = 'running'").run(errors, nowIso()).changes;
}

/** The timeline of one run of this account (CONTRACT §4), or null. */
export function getRunTimeline(db: Db, accountId: string, runId: string) {
  const r = db.select().from(runs).where(and(eq(runs.id, runId), eq(runs.accountId, accountId))).get();
  if (!r) return null;
  const events = db.select().from(runEvents).where(eq(runEvents.runId, runId)).orderBy(asc(runEvents.id)).all();
  return {
    request_id: r.id, status: r.status, query: r.query, origin: r.origin, endpoint: r.endpoint,
    created_at: r.createdAt, finished_at: r.finishedAt, latency_ms: r.latencyMs, writer: r.writer,
    answer: r.answer,
    events: events.map((e) => ({ ...e.data, at_ms: e.atMs, type: e.type })),
    sources: r.sources ?? [], errors: r.errors ?? [],
    usage: { tokens_in: r.tokensIn, tokens_out: r.tokensOut },
  };
}
