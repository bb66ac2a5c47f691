import { rawStream } from "./sse-client.ts";

/**
 * The floor for "time to first event" on this machine: a bare Bun server that answers every
 * stream with one event at once, hit by the same burst from the same raw-socket client.
 */
export async function burstFloor(n: number): Promise<{ p50: number; p99: number }> {
  const server = `const s = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch() {
    return new Response(new ReadableStream({ async start(c) { c.enqueue(new TextEncoder().encode("event: progress\\ndata: {}\\n\\n")); await Bun.sleep(3000); c.enqueue(new TextEncoder().encode("event: final\\ndata: {\\"status\\":\\"ok\\"}\\n\\n")); c.close(); } }), { headers: { "content-type": "text/event-stream" } });
  } }); console.log(JSON.stringify({ port: s.port }));`;
  const p = Bun.spawn(["bun", "-e", server], { stdout: "pipe" });
  const { value } = await p.stdout.getReader().read();
  const { port } = JSON.parse(new TextDecoder().decode(value)) as { port: number };
  let times: number[] = [];
  try {
    const results = await Promise.all(
      Array.from({ length: n }, () => rawStream(port, "/", { "content-type": "application/json" }, "{}")),
    );
    times = results.map((r) => r.firstEventMs).filter((t) => !Number.isNaN(t));
  } finally {
    p.kill();
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! };
}
