import type { RunTimeline } from "../contract/console.ts";
import type { Store } from "../store/types.ts";

/** The timeline of one run of this account (README "The API"), or null: `at_ms` counts from acceptance. */
export async function runTimeline(store: Store, accountId: string, runId: string): Promise<RunTimeline | null> {
  const found = await store.runs.withEvents(accountId, runId);
  if (!found) return null;
  const { run: r, events } = found;
  return {
    request_id: r.id,
    status: r.status,
    query: r.query,
    origin: r.origin,
    endpoint: r.endpoint,
    created_at: r.createdAt,
    finished_at: r.finishedAt,
    latency_ms: r.latencyMs,
    writer: r.writer,
    answer: r.answer,
    events: events.map((e) => ({ ...e.data, at_ms: e.atMs, type: e.type })),
    sources: r.sources,
    errors: r.errors,
    usage: { tokens_in: r.tokensIn, tokens_out: r.tokensOut },
  };
}
