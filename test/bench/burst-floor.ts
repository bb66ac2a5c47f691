import { cpuMs } from "./processes.ts";
import { rawStream, type StreamResult } from "./sse-client.ts";

/**
 * The floor for "time to first event" on this machine: a bare Bun server that answers every
 * stream with one event at once, hit by the same client with the same arrivals: `n` at once,
 * or `n` spread evenly over `rampMs`.
 */
export async function burstFloor(n: number, rampMs = 0): Promise<{ p50: number; p99: number; cpuMs: number }> {
  const server = `const s = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch() {
    return new Response(new ReadableStream({ async start(c) { c.enqueue(new TextEncoder().encode("event: progress\\ndata: {}\\n\\n")); await Bun.sleep(3000); c.enqueue(new TextEncoder().encode("event: final\\ndata: {\\"status\\":\\"ok\\"}\\n\\n")); c.close(); } }), { headers: { "content-type": "text/event-stream" } });
  } }); console.log(JSON.stringify({ port: s.port }));`;
  const p = Bun.spawn(["bun", "-e", server], { stdout: "pipe" });
  const { value } = await p.stdout.getReader().read();
  const { port } = JSON.parse(new TextDecoder().decode(value)) as { port: number };
  let times: number[] = [];
  let cpu = 0;
  try {
    const before = await cpuMs(p.pid);
    const all: Promise<StreamResult>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      if (rampMs) {
        const wait = t0 + (i * rampMs) / n - performance.now();
        if (wait > 1) await Bun.sleep(wait);
      }
      all.push(rawStream(port, "/", { "content-type": "application/json" }, "{}"));
    }
    const results = await Promise.all(all);
    // The server has done nothing since the last first event but wait (3 s) to send final.
    cpu = (await cpuMs(p.pid)) - before;
    times = results.map((r) => r.firstEventMs).filter((t) => !Number.isNaN(t));
  } finally {
    p.kill();
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]!, cpuMs: cpu };
}
