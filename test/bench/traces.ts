import { pct, spawnJson } from "./processes.ts";
import { spawnServer } from "./serving.ts";
import { rawStream } from "./sse-client.ts";
import { type WrkResult, wrk } from "./wrk.ts";

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Streams opened at once against `port`: each one's time to its first event. */
async function firstEvents(port: number, key: string, n: number): Promise<{ p50: number; p99: number; ok: number }> {
  const body = JSON.stringify({ query: "What is base editing?" });
  const results = await Promise.all(
    Array.from({ length: n }, () =>
      rawStream(
        port,
        "/api/query/stream",
        { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      ),
    ),
  );
  const firsts = results.map((r) => r.firstEventMs);
  return { p50: pct(firsts, 0.5), p99: pct(firsts, 0.99), ok: results.filter((r) => r.ok).length };
}

/**
 * Section 19: what traces cost a server whose engine answers at once (so the overhead is all
 * there is): accepted JSON runs under wrk, and a crowd of streams' first events, with no
 * collector configured, a live one (the OTLP receiver of the tests, decoding every export), and
 * one that accepts and never answers. Runs per collector, median of 3 wrk rounds.
 */
export async function benchTraces(streams = 200): Promise<string> {
  if (!Bun.which("wrk")) return "traces: skipped — wrk is not installed (apt-get install -y wrk)";
  const sink = (mode: string) => spawnJson<{ url: string }>(["bun", `${import.meta.dir}/otlp-sink.ts`, mode]);
  const live = await sink("live");
  const hung = await sink("hang");
  const cases: { label: string; env: Record<string, string> }[] = [
    { label: "nothing configured (no SDK loaded)", env: {} },
    { label: "a live collector (OTLP/HTTP protobuf)", env: { OTEL_EXPORTER_OTLP_ENDPOINT: live.info.url } },
    { label: "a collector that accepts and never answers", env: { OTEL_EXPORTER_OTLP_ENDPOINT: hung.info.url } },
  ];
  const rows: string[] = [];
  try {
    for (const c of cases) {
      const srv = await spawnServer(["core"], c.env);
      try {
        const { port, key } = srv.info as { port: number; key: string };
        const url = `http://127.0.0.1:${port}/api/query`;
        const headers = { "content-type": "application/json", authorization: `Bearer ${key}` };
        const body = JSON.stringify({ query: "What is base editing?" });
        const rounds: WrkResult[] = [];
        for (let i = 0; i < 3; i++) rounds.push(await wrk(url, headers, body, { threads: 2, conns: 16, seconds: 5 }));
        const w = rounds.sort((x, y) => x.rps - y.rps)[1]!;
        // The streams meet a server at rest: wrk's spans exported (or dropped) first.
        await Bun.sleep(3000);
        const f = await firstEvents(port, key, streams);
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        const dropped = [...metrics.matchAll(/^rq_trace_spans_dropped_total\{[^}]*\} (\d+)/gm)].reduce(
          (n, m) => n + Number(m[1]),
          0,
        );
        rows.push(
          `| ${c.label} | ${w.rps.toFixed(0)} req/s, p50 ${w.p50ms.toFixed(2)} ms, p99 ${w.p99ms.toFixed(2)} ms | ${ms(f.p50)} / ${ms(f.p99)} (${f.ok} of ${streams} ok) | ${dropped} |`,
        );
      } finally {
        srv.kill();
      }
    }
  } finally {
    live.kill();
    hung.kill();
  }
  return [
    `Traces: accepted /api/query runs (engine answering at once; wrk, 16 connections, median of 3 rounds of 5 s), then ${streams} /api/query/stream opened at once; the same bench server, its collector changed:`,
    "",
    "| collector | accepted runs | first event p50 / p99 (streams) | spans dropped (/metrics) |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}

if (import.meta.main) console.log(await benchTraces());
