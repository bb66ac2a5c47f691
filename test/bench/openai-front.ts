import { join } from "node:path";
import { pct, spawnJson } from "./processes.ts";

const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
const QUESTION = "How do base editors avoid double-strand breaks?";

/** Milliseconds from sending `init` to the last byte of its answer. */
async function timed(url: string, init: RequestInit): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - t0;
}

/**
 * Section 18: what the OpenAI-compatible front adds to a run. A bench server whose engine
 * answers at once (so what is measured is the plumbing) and `openai --server` in a process of
 * its own, as deployed; each call the same run, sequentially, direct calls and calls through
 * the front interleaved so both see the same machine.
 */
export async function benchOpenaiFront(runs = 300, warmup = 30): Promise<string> {
  const srv = await spawnJson<{ port: number; key: string }>(["bun", join(import.meta.dir, "bench-server.ts"), "core"]);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const front = Bun.spawn(
    ["bun", MAIN, "openai", "--server", `http://127.0.0.1:${srv.info.port}`, "--port", String(port)],
    { env: { PATH: process.env.PATH!, LOG_LEVEL: "warn" }, stdout: "ignore", stderr: "inherit" },
  );
  try {
    for (let up = false; !up; ) {
      up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await Bun.sleep(20);
    }
    const auth = { authorization: `Bearer ${srv.info.key}`, "content-type": "application/json" };
    const direct = `http://127.0.0.1:${srv.info.port}/api/query`;
    const chat = `http://127.0.0.1:${port}/v1/chat/completions`;
    const query = JSON.stringify({ query: QUESTION });
    const ask = (stream: boolean) =>
      JSON.stringify({ model: "research-query", stream, messages: [{ role: "user", content: QUESTION }] });
    const calls: [string, () => Promise<number>][] = [
      [
        "direct POST /api/query/stream",
        () => timed(`${direct}/stream`, { method: "POST", headers: auth, body: query }),
      ],
      ["front, stream: true", () => timed(chat, { method: "POST", headers: auth, body: ask(true) })],
      ["direct POST /api/query", () => timed(direct, { method: "POST", headers: auth, body: query })],
      ["front, stream: false", () => timed(chat, { method: "POST", headers: auth, body: ask(false) })],
    ];
    const times = calls.map(() => [] as number[]);
    for (let i = 0; i < warmup + runs; i++)
      for (const [j, [, call]] of calls.entries()) {
        const ms = await call();
        if (i >= warmup) times[j]!.push(ms);
      }
    const row = (name: string, xs: number[]) =>
      `| ${name} | ${pct(xs, 0.5).toFixed(2)} | ${pct(xs, 0.95).toFixed(2)} |`;
    const over = (a: number[], b: number[], q: number) => (pct(b, q) - pct(a, q)).toFixed(2);
    return [
      `A run through \`openai --server\` (its own process) against the same run called directly; an engine that answers at once, so the figures are the plumbing; ${runs} sequential calls of each after ${warmup} to warm up, interleaved:`,
      "",
      "| call | p50 ms | p95 ms |",
      "|---|---|---|",
      ...calls.map(([name], j) => row(name, times[j]!)),
      "",
      `Overhead of the front: streamed p50 +${over(times[0]!, times[1]!, 0.5)} ms, p95 +${over(times[0]!, times[1]!, 0.95)} ms; not streamed p50 +${over(times[2]!, times[3]!, 0.5)} ms, p95 +${over(times[2]!, times[3]!, 0.95)} ms.`,
    ].join("\n");
  } finally {
    front.kill("SIGTERM");
    await front.exited;
    srv.kill();
  }
}
