import { type PoolCount, poolCounts } from "../util/worker-pool/pool-census.ts";

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
  const out: string[] = [];
  const each = (name: string, type: string, help: string, rows: string[]) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...rows);
  };
  for (const [name, help, value] of GAUGES)
    each(
      name,
      "gauge",
      help,
      counts.map((c) => `${name}{pool="${c.pool}"} ${value(c)}`),
    );
  each(
    "rq_worker_jobs_total",
    "counter",
    "Jobs a pool's threads ended, by outcome (error: crashed, past its deadline, over the memory bound or closed)",
    counts.flatMap((c) => [
      `rq_worker_jobs_total{outcome="ok",pool="${c.pool}"} ${c.ok}`,
      `rq_worker_jobs_total{outcome="error",pool="${c.pool}"} ${c.failed}`,
    ]),
  );
  each(
    "rq_worker_restarts_total",
    "counter",
    "Threads of a pool stopped and replaced (a crash, a job past its deadline or over the memory bound)",
    counts.map((c) => `rq_worker_restarts_total{pool="${c.pool}"} ${c.restarts}`),
  );
  return out.join("\n");
}
