import { burstFloor } from "./burst-floor.ts";
import { WARM_UP_MARK } from "./held-fixtures.ts";
import { cpuMs, pct, startHeldServer } from "./processes.ts";
import { rawStream, type StreamResult } from "./sse-client.ts";

interface Trace {
  /** [request id, handler entered, response ready] on the machine's clock (ms). */
  requests: [string, number, number][];
  /** [window start, the event loop's worst lateness in it (ms)] per 100 ms. */
  lag: [number, number][];
}

const f = (x: number) => (Number.isNaN(x) ? "—" : x < 10 ? x.toFixed(1) : x.toFixed(0));

/**
 * Where a crowd's time to first event goes (`bun test/bench/burst-profile.ts [burst|ramp] [n]
 * [rampMs]`): the held-streams server (real engine, fixture upstreams, writer holding 15 s)
 * traced per request (BENCH_TRACE in bench-server.ts). Each stream's first event is split into
 * the wait before its handler ran (connect, the kernel's accept queue, the event loop busy with
 * other work), the handler (key check, body, acceptance, the first event written) and delivery
 * (from the response being ready to the client reading the event). BENCH_PROFILE=dir adds a
 * CPU profile of the server.
 */
export async function burstProfile(shape: "burst" | "ramp", n: number, rampMs: number): Promise<string> {
  const tracePath = `/tmp/rq-burst-trace-${crypto.randomUUID()}.json`;
  const prof = process.env.BENCH_PROFILE;
  const hold = process.env.BENCH_HOLD_MS ?? "15000";
  // BENCH_MODE=core: the engine that emits its events and holds without working (our overhead alone).
  const srv = await startHeldServer(hold, process.env.BENCH_MODE === "core" ? ["core", hold] : ["engine"], {
    BENCH_TRACE: tracePath,
  });
  const { port, key } = srv.info;
  const open = (query = "What is base editing?") =>
    rawStream(
      port,
      "/api/query/stream",
      { authorization: `Bearer ${key}`, "content-type": "application/json" },
      JSON.stringify({ query }),
      () => {
        // The server's CPU time when the phase's last first event arrived.
        if (phaseStart && ++firstEvents === n) void cpuMs(srv.info.pid).then((c) => (cpuAtLast = c));
      },
    );
  let results: StreamResult[] = [];
  let phaseStart = 0,
    cpuBefore = 0,
    cpuAtLast = 0,
    firstEvents = 0;
  try {
    await Bun.sleep(500);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        Bun.sleep(i * 10).then(() => open(`What is base editing? ${WARM_UP_MARK}`)),
      ),
    );
    await Bun.sleep(1000);
    phaseStart = performance.timeOrigin + performance.now();
    cpuBefore = await cpuMs(srv.info.pid);
    const all: Promise<StreamResult>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      if (shape === "ramp") {
        const wait = t0 + (i * rampMs) / n - performance.now();
        if (wait > 1) await Bun.sleep(wait);
      }
      all.push(open());
    }
    results = await Promise.all(all);
  } finally {
    srv.kill();
  }
  await Bun.sleep(prof ? 3000 : 500);
  const trace = (await Bun.file(tracePath).json()) as Trace;
  const byId = new Map(trace.requests.map(([id, entered, ready]) => [id, { entered, ready }]));
  const wait: number[] = [],
    handler: number[] = [],
    deliver: number[] = [],
    first: number[] = [];
  for (const r of results) {
    first.push(r.firstEventMs);
    const t = r.requestId ? byId.get(r.requestId) : undefined;
    if (!t) continue;
    wait.push(t.entered - r.sentAt);
    handler.push(t.ready - t.entered);
    deliver.push(r.sentAt + r.firstEventMs - t.ready);
  }
  if (process.env.BENCH_DUMP)
    await Bun.write(
      process.env.BENCH_DUMP,
      JSON.stringify(results.map((r) => ({ ...r, ...(r.requestId ? byId.get(r.requestId) : {}) }))),
    );
  const lag = trace.lag.filter(([at]) => at >= phaseStart).map(([, l]) => l);
  const floor = shape === "burst" ? await burstFloor(n) : await burstFloor(n, rampMs);
  const row = (name: string, xs: number[]) =>
    `| ${name} | ${f(pct(xs, 0.5))} | ${f(pct(xs, 0.99))} | ${f(pct(xs, 1))} |`;
  return [
    `${shape === "burst" ? `${n} streams at once` : `${n} streams at ${Math.round(n / (rampMs / 1000))}/s`}: ${results.filter((r) => r.ok).length} ended with final; ${handler.length} matched to the server's trace.`,
    "",
    "| stage (ms) | p50 | p99 | max |",
    "|---|---|---|---|",
    row("before the handler ran (connect, accept queue, busy event loop)", wait),
    row("in the handler (key, body, acceptance, first event written)", handler),
    row("response ready → client read the event", deliver),
    row("time to first event", first),
    row("event loop lateness per 100 ms window, during the phase", lag),
    `| server CPU from the phase's start to its last first event (ms; per stream) | ${f(cpuAtLast - cpuBefore)} | ${f(((cpuAtLast - cpuBefore) * 1000) / n)} µs | — |`,
    `| bare Bun SSE, same client and arrivals: first event | ${f(floor.p50)} | ${f(floor.p99)} | — |`,
    `| bare Bun SSE: server CPU for the phase (ms; per stream) | ${f(floor.cpuMs)} | ${f((floor.cpuMs * 1000) / n)} µs | — |`,
  ].join("\n");
}

if (import.meta.main)
  console.log(
    await burstProfile(
      (process.argv[2] ?? "burst") as "burst" | "ramp",
      Number(process.argv[3] ?? 2000),
      Number(process.argv[4] ?? 2000),
    ),
  );
