// A server for the serving benchmarks: the real HTTP stack and database, with an engine
// that answers at once (so what is measured is our overhead), or a bare Elysia route.
import { Elysia } from "elysia";
import { createAccount } from "../../src/auth/accounts.ts";
import { loadConfig } from "../../src/config/load.ts";
import { createKey } from "../../src/keys/api-keys.ts";
import { Metrics } from "../../src/metrics/registry.ts";
import { buildEngine } from "../../src/research/build-engine.ts";
import type { Engine } from "../../src/research/types.ts";
import { startServer } from "../../src/server/server.ts";
import { startTracing } from "../../src/server/tracing/otlp-setup.ts";
import { openStore } from "../../src/store/open.ts";
import { createLogger, type Logger } from "../../src/util/logger.ts";

const mode = process.argv[2] ?? "core";
export const SAMPLE = {
  request_id: "00000000-0000-4000-8000-000000000000",
  status: "error",
  answer: null,
  sources: [],
  usage: { latency_ms: 0, tokens_in: 0, tokens_out: 0 },
  errors: [{ code: "invalid_api_key", message: "the API key is not valid" }],
};

if (mode === "bare") {
  const app = new Elysia().post("/api/query", () => SAMPLE).listen({ port: 0, hostname: "127.0.0.1" });
  console.log(JSON.stringify({ port: app.server!.port }));
} else {
  const holdMs = Number(process.argv[3] ?? "0");
  // "engine": the real engine, configured from the environment (fixture upstreams).
  const engine: Engine =
    mode === "engine"
      ? buildEngine(loadConfig(), createLogger("silent"))
      : {
          async run(q, ctx) {
            const src = {
              id: "S1",
              title: "t",
              url: "https://example.org/",
              type: "web" as const,
              provider: "searxng",
              snippet: "s",
            };
            for (const stage of ["planning", "searching", "reading", "writing"] as const)
              ctx.emit({ type: "progress", stage, message: stage });
            ctx.emit({ type: "source", source: src });
            if (holdMs) await Bun.sleep(holdMs);
            ctx.emit({ type: "answer", delta: `Answer to ${q.length} chars [S1].` });
            return { answer: "Answer [S1].", sources: [src], writer: "extractive", tokens_in: 1, tokens_out: 1 };
          },
        };
  // Section 8 starts several of these on one database: BENCH_DATABASE_URL (PostgreSQL) or
  // BENCH_DB_PATH (one SQLite file); the first makes the account, the others get its BENCH_KEY.
  const dbPath = process.env.BENCH_DB_PATH || `/tmp/rq-bench-${crypto.randomUUID()}.db`;
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const config = loadConfig(
    {
      PORT: "0",
      DATABASE_PATH: dbPath,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      // Section 8's pool sizes and the PgBouncer row pass these through.
      ...(process.env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX } : {}),
      ...(process.env.DATABASE_PREPARED_STATEMENTS
        ? { DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS }
        : {}),
      PLAN_RUNS_FREE: "1000000000",
      LOG_LEVEL: "silent",
      // Section 19 runs it with and without a collector.
      ...Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.startsWith("OTEL_") && v)),
    },
    "/nonexistent",
  );
  // As `serve` opens it (src/cli/serve.ts).
  const store = await openStore(config, { checkpointThread: true });
  const key =
    process.env.BENCH_KEY ||
    (
      await createKey(
        store,
        (
          await createAccount(store, "bench@example.com", "bench password", "free")
        ).id,
        "bench",
        100,
      )
    ).key;
  // As `serve` starts it (src/server/compose.ts): only when an OTEL_* endpoint is set.
  const metrics = new Metrics(() => 0);
  await startTracing(config, metrics.traceSpansDropped);
  const s = startServer({
    config,
    engine,
    store,
    metrics,
    logger: process.env.BENCH_TRACE ? traceLogger() : createLogger("silent"),
  });
  console.log(JSON.stringify({ port: s.port, key, db: dbPath, pid: process.pid }));
}

/**
 * BENCH_TRACE=file (test/bench/burst-profile.ts): each query request's handler entry and the
 * moment its response was ready (machine clock, ms), from the server's request log line, and
 * the event loop's lateness (a 5 ms timer's delay) per 100 ms, written to the file at SIGTERM.
 */
const trace: { requests: [string, number, number][]; lag: [number, number][] } = { requests: [], lag: [] };
function traceLogger(): Logger {
  const quiet = createLogger("silent");
  let expected = performance.now() + 5,
    worst = 0,
    windowStart = performance.now();
  setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - expected);
    expected = now + 5;
    if (now - windowStart >= 100) {
      trace.lag.push([performance.timeOrigin + windowStart, worst]);
      worst = 0;
      windowStart = now;
    }
  }, 5);
  return {
    ...quiet,
    enabled: (level) => level !== "debug",
    info(msg, fields) {
      if (msg !== "request" || !String(fields?.path).startsWith("/api/query")) return;
      const ready = performance.timeOrigin + performance.now();
      trace.requests.push([String(fields?.request_id), ready - Number(fields?.latency_ms), ready]);
    },
  };
}

process.on("SIGTERM", () => {
  if (process.env.BENCH_TRACE) require("node:fs").writeFileSync(process.env.BENCH_TRACE, JSON.stringify(trace));
  process.exit(0);
});
