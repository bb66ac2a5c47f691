import type { RunService } from "../runs/service.ts";

/** How long answers of settled runs may take to reach their callers before connections close. */
const FLUSH_MS = 5_000;

/**
 * A shutdown that loses no answer (docs/decisions/0036-shutdown-drains.md). The listener stays open, so new
 * calls hear 503 with Retry-After (runs/service.ts SHUTTING_DOWN) instead of "connection
 * refused"; runs in flight finish (stragglers past `graceMs` end `interrupted`); then every
 * open response, streams included, is let finish writing its last events before the listener
 * and the idle connections close. Closing as soon as the runs settled cut one stream in
 * 10–20 before its `final`, and a JSON caller before its answer.
 */
export async function drain(server: Bun.Server<undefined>, runs: RunService, graceMs: number): Promise<void> {
  await runs.drain(graceMs);
  const until = Date.now() + FLUSH_MS;
  while (server.pendingRequests > 0 && Date.now() < until) await Bun.sleep(10);
  await server.stop(true);
}
