import { burstFloor } from "./burst-floor.ts";
import { WARM_UP_MARK } from "./held-fixtures.ts";
import { pct, startHeldServer } from "./processes.ts";
import { rawStream, type StreamResult } from "./sse-client.ts";

const rssKb = async (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(await Bun.file(`/proc/${pid}/status`).text())?.[1] ?? 0);

const ms = (x: number) => `${x.toFixed(1)} ms`;

/**
 * Section 3: N concurrent /api/query/stream calls through the real engine, held open by a
 * writer model that waits before answering. Two arrival patterns on the same server:
 * a ramp (N streams opened over `rampMs`, all held together) and a burst (N at once).
 * Memory per held stream (server RSS), time to first event, every stream ends with final.
 */
export async function benchHeldStreams(
  n = 2000,
  holdMs = 15_000,
  rampsMs: number[] = [8000, 2000],
  serverEnv: Record<string, string> = {},
): Promise<string> {
  const srv = await startHeldServer(String(holdMs), ["engine"], serverEnv);
  const { port, key, pid } = srv.info;
  const open = (query = "What is base editing?") =>
    rawStream(
      port,
      "/api/query/stream",
      { authorization: `Bearer ${key}`, "content-type": "application/json" },
      JSON.stringify({ query }),
    );
  try {
    await Bun.sleep(500);
    const cold = await rssKb(pid);
    // Warm-up, as any load test does: 100 runs over 1 s (answered at once, not held) so the
    // JIT has compiled the engine's paths and the parse worker is up before measuring. Memory
    // per held stream is counted from this warm idle: the worker (~40 MB) is a fixed cost.
    const warmed = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        Bun.sleep(i * 10).then(() => open(`What is base editing? ${WARM_UP_MARK}`)),
      ),
    );
    await Bun.sleep(1000);
    const idle = await rssKb(pid);
    let peak = idle;
    const sampler = setInterval(async () => {
      peak = Math.max(peak, await rssKb(pid).catch(() => 0));
    }, 250);

    // Ramps: a steady arrival rate up to N held at once (the hold outlasts the ramp); the
    // last quarter opens while ≥ 3N/4 are held. Slowest rate first: its RSS is the held figure.
    const ramps: { rampMs: number; results: StreamResult[] }[] = [];
    let held = 0,
      rampPeak = 0;
    for (const rampMs of rampsMs) {
      const ramp: Promise<StreamResult>[] = [];
      const t0 = performance.now();
      for (let i = 0; i < n; i++) {
        const wait = t0 + (i * rampMs) / n - performance.now();
        if (wait > 1) await Bun.sleep(wait);
        ramp.push(open());
      }
      await Bun.sleep(holdMs * 0.5);
      if (!held) held = await rssKb(pid);
      const results = await Promise.all(ramp);
      if (process.env.BENCH_DUMP)
        await Bun.write(`${process.env.BENCH_DUMP}.${rampMs}`, JSON.stringify(results.map((r) => r.firstEventMs)));
      ramps.push({ rampMs, results });
      rampPeak = Math.max(rampPeak, peak);
    }

    // Burst: all N at once (the connect storm meets the kernel's accept queue).
    const burstResults = await Promise.all(Array.from({ length: n }, open));
    clearInterval(sampler);
    const floor = await burstFloor(n);

    const firsts = (r: StreamResult[]) => r.map((x) => x.firstEventMs);
    const oks = (r: StreamResult[]) => r.filter((x) => x.ok).length;
    const rampRows = ramps.flatMap(({ rampMs, results }) => {
      const rate = Math.round(n / (rampMs / 1000));
      const last = firsts(results).slice(Math.floor(n * 0.75));
      return [
        `| ramp at ${rate}/s (${n} opened over ${rampMs / 1000} s, all held together): ended with final (status ok) | ${oks(results)} of ${n} |`,
        `| ramp at ${rate}/s: time to first event p50 / p99 / max | ${ms(pct(firsts(results), 0.5))} / ${ms(pct(firsts(results), 0.99))} / ${ms(pct(firsts(results), 1))} |`,
        `| ramp at ${rate}/s, last quarter (opened while ≥ ${Math.floor(n * 0.75)} were held): p50 / p99 | ${ms(pct(last, 0.5))} / ${ms(pct(last, 0.99))} |`,
      ];
    });
    return [
      `Held streams: ${n} concurrent /api/query/stream through the real engine (each run reads a landing page and a PDF), writer holding ${holdMs / 1000} s before answering; client on raw sockets, upstream fixtures in their own process.`,
      "",
      "| measure | value |",
      "|---|---|",
      ...rampRows,
      `| burst (${n} at once): ended with final (status ok) | ${oks(burstResults)} of ${n} |`,
      `| burst: time to first event p50 / p99 | ${ms(pct(firsts(burstResults), 0.5))} / ${ms(pct(firsts(burstResults), 0.99))} |`,
      `| same burst against a bare Bun SSE server (same client) | ${ms(floor.p50)} / ${ms(floor.p99)} |`,
      `| warm-up runs ended with final (status ok) | ${oks(warmed)} of 100 |`,
      `| server RSS at start → warm idle (parse worker up) → ${n} held (peak) | ${(cold / 1024).toFixed(0)} MB → ${(idle / 1024).toFixed(0)} MB → ${(held / 1024).toFixed(0)} MB (${(rampPeak / 1024).toFixed(0)} MB) |`,
      `| memory per held stream | ${((held - idle) / n).toFixed(1)} KB |`,
    ].join("\n");
  } finally {
    srv.kill();
  }
}

if (import.meta.main)
  console.log(
    await benchHeldStreams(
      Number(process.argv[2] ?? 2000),
      15_000,
      process.argv[3] ? process.argv[3].split(",").map(Number) : undefined,
    ),
  );
