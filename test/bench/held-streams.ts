import { isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
import { startSearchFixtures } from "../fixtures/search-servers.ts";
import { burstFloor } from "./burst-floor.ts";

const rssKb = async (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(await Bun.file(`/proc/${pid}/status`).text())?.[1] ?? 0);

/**
 * Section 3: N concurrent /api/query/stream calls through the real engine, held open by a
 * writer model that waits before answering. Memory per held stream (server RSS), time to
 * the first event, and that every stream ends with final.
 */
export async function benchHeldStreams(n = 2000, holdMs = 15_000): Promise<string> {
  const search = startSearchFixtures("http://pages.invalid");
  const chat = startChatServer((b) => (isPlannerCall(b) ? { text: '{"kind":"academic","language":"en","queries":["base editing"]}' } : { delayMs: holdMs, text: "Base editing converts single bases [S1]." }));
  const env = { ...process.env, SEARXNG_URL: "", ACADEMIC_PROVIDERS: "openalex", OPENALEX_URL: search.urls.openalex, OPENAI_BASE_URL: chat.openaiBase, FETCH_ALLOW_PRIVATE: "false" };
  const p = Bun.spawn(["bun", `${import.meta.dir}/bench-server.ts`, "engine"], { env, stdout: "pipe", stderr: "inherit" });
  const reader = p.stdout.getReader();
  let buf = "";
  while (!buf.includes("\n")) { const { value, done } = await reader.read(); if (done) break; buf += new TextDecoder().decode(value); }
  const info = JSON.parse(buf.split("\n")[0]!) as { port: number; key: string; pid: number };
  try {
    await Bun.sleep(500);
    const idle = await rssKb(info.pid);
    const firstEvent: number[] = [];
    let finals = 0, failures = 0, peak = idle;
    const sampler = setInterval(async () => { peak = Math.max(peak, await rssKb(info.pid).catch(() => 0)); }, 250);
    const one = async () => {
      const t0 = performance.now();
      try {
        const res = await fetch(`http://127.0.0.1:${info.port}/api/query/stream`, { method: "POST", headers: { authorization: `Bearer ${info.key}`, "content-type": "application/json" }, body: JSON.stringify({ query: "What is base editing?" }) });
        const r = res.body!.getReader();
        let text = "", first = true;
        for (;;) {
          const { value, done } = await r.read();
          if (done) break;
          if (first) { firstEvent.push(performance.now() - t0); first = false; }
          text += new TextDecoder().decode(value);
        }
        if (/event: final\ndata: \{[^\n]*"status":"ok"/.test(text)) finals++; else failures++;
      } catch { failures++; }
    };
    const all = Array.from({ length: n }, one);
    await Bun.sleep(holdMs * 0.7);
    const held = await rssKb(info.pid);
    await Promise.all(all);
    clearInterval(sampler);
    firstEvent.sort((a, b) => a - b);
    const pct = (q: number) => firstEvent[Math.min(firstEvent.length - 1, Math.floor(firstEvent.length * q))] ?? NaN;
    const floor = await burstFloor(n);
    return [
      `Held streams: ${n} concurrent /api/query/stream through the real engine, writer holding ${holdMs / 1000} s before answering.`,
      "",
      "| measure | value |", "|---|---|",
      `| streams ending with final (status ok) | ${finals} of ${n} (${failures} failed) |`,
      `| time to first event p50 / p99 | ${pct(0.5).toFixed(1)} ms / ${pct(0.99).toFixed(1)} ms |`,
      `| same burst against a bare Bun SSE server (this machine's floor) | ${floor.p50.toFixed(1)} ms / ${floor.p99.toFixed(1)} ms |`,
      `| server RSS idle → while held (peak) | ${(idle / 1024).toFixed(0)} MB → ${(held / 1024).toFixed(0)} MB (${(peak / 1024).toFixed(0)} MB) |`,
      `| memory per held stream | ${((held - idle) / n).toFixed(1)} KB |`,
    ].join("\n");
  } finally { p.kill(); search.stop(); chat.stop(); }
}

if (import.meta.main) console.log(await benchHeldStreams(Number(process.argv[2] ?? 2000)));
