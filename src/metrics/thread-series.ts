import { type PoolCount, poolCounts } from "../util/worker-pool/pool-census.ts";
import { family, labelText, sample } from "./exposition.ts";

/**
 * The process's pools of worker threads, one label per pool (parse, search, import): how many
 * threads run and hold a job, the jobs waiting, their outcomes and the threads replaced
 * (docs/decisions/0151-metrics-of-the-process-and-its-threads.md). A pool appears once it is
 * built; its threads start on first use.
 */
const GAUGES: [string, string, (c: PoolCount) => number][] = [
  ["rq_worker_threads_max", "Threads a pool may run", (c) => c.size],
  ["rq_worker_threads", "Threads a pool runs now", (c) => c.threads],
  ["rq_worker_threads_busy", "Threads of a pool holding a job now", (c) => c.busy],
  ["rq_worker_jobs_queued", "Jobs waiting for a thread of the pool", (c) => c.queued],
];

export function threadSeries(counts: PoolCount[] = poolCounts()): string {
  const pool = (c: PoolCount, more: Record<string, string> = {}) => labelText({ ...more, pool: c.pool });
  return [
    ...GAUGES.map(([name, help, value]) =>
      family(
        name,
        "gauge",
        help,
        counts.map((c) => sample(name, pool(c), value(c))),
      ),
    ),
    family(
      "rq_worker_jobs_total",
      "counter",
      "Jobs a pool's threads ended, by outcome (error: crashed, past its deadline, over the memory bound or closed)",
      counts.flatMap((c) => [
        sample("rq_worker_jobs_total", pool(c, { outcome: "ok" }), c.ok),
        sample("rq_worker_jobs_total", pool(c, { outcome: "error" }), c.failed),
      ]),
    ),
    family(
      "rq_worker_restarts_total",
      "counter",
      "Threads of a pool stopped and replaced (a crash, a job past its deadline or over the memory bound)",
      counts.map((c) => sample("rq_worker_restarts_total", pool(c), c.restarts)),
    ),
  ].join("\n");
}
