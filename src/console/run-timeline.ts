import type { RunTimeline } from "../contract/console.ts";
import { readRun } from "../runs/withhold/withhold.ts";
import type { Store } from "../store/types.ts";

/**
 * The timeline of one run of this account (README "The API"), or null: `at_ms` counts from
 * acceptance. Read as the replays read it: what its reader may no longer read is withheld.
 */
export async function runTimeline(store: Store, accountId: string, runId: string): Promise<RunTimeline | null> {
  const found = await readRun(store, accountId, runId);
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
    // `parts` (where each answer delta ended) is for replaying streams, not for people.
    events: events.map(({ data: { parts: _, ...data }, atMs, type }) => ({ ...data, at_ms: atMs, type })),
    sources: r.sources,
    // As the envelope carries it (README "Claims you can check"): the Console shows the same counts.
    verification: r.verification ?? null,
    errors: r.errors,
    usage: { tokens_in: r.tokensIn, tokens_out: r.tokensOut },
    // Recorded on the "accepted" entry when traces were on (src/runs/run-to-end.ts).
    trace_id: traceIdOf(events.find((e) => e.type === "accepted")?.data),
  };
}

function traceIdOf(data: Record<string, unknown> | undefined): string | null {
  const id = data?.trace_id;
  return typeof id === "string" && /^[0-9a-f]{32}$/.test(id) ? id : null;
}
