/**
 * The floor for "time to first event" on this machine: a bare Bun server that answers every
 * stream with one event at once, hit by the same burst from the same kind of client.
 */
export async function burstFloor(n: number): Promise<{ p50: number; p99: number }> {
  const server = `const s = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch() {
    return new Response(new ReadableStream({ async start(c) { c.enqueue(new TextEncoder().encode("event: progress\\ndata: {}\\n\\n")); await Bun.sleep(3000); c.close(); } }), { headers: { "content-type": "text/event-stream" } });
  } }); console.log(JSON.stringify({ port: s.port }));`;
  const p = Bun.spawn(["bun", "-e", server], { stdout: "pipe" });
  const { value } = await p.stdout.getReader().read();
  const { port } = JSON.parse(new TextDecoder().decode(value)) as { port: number };
  const times: number[] = [];
  try {
    await Promise.all(Array.from({ length: n }, async () => {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" });
      const r = res.body!.getReader();
      await r.read();
      times.push(performance.now() - t0);
      while (!(await r.read()).done) { /* drain */ }
    }));
  } finally { p.kill(); }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n / 2)]!, p99: times[Math.floor(n * 0.99)]! };
}
