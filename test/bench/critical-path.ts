import { loadConfig } from "../../src/config/load.ts";
import { buildEngine } from "../../src/research/build-engine.ts";
import type { RunEvent } from "../../src/research/types.ts";
import { createLogger } from "../../src/util/logger.ts";
import { isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";

/**
 * Section 4: fixed upstream latencies — search 300 ms, each page 400 ms (one never answers),
 * plan 300 ms, writer 500 ms to first token then 1,000 tokens at 400 tokens/s — and the run's
 * wall time against the ideal critical path.
 */
export async function benchCriticalPath(runs = 5): Promise<string> {
  const article = (i: number) =>
    `<html><head><title>Page ${i}</title></head><body><article>${Array.from({ length: 6 }, (_, j) => `<p>Paragraph ${j} of page ${i} explains how base editing converts one DNA base into another without double-strand breaks, with detail number ${j}.</p>`).join("")}</article></body></html>`;
  const pages = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const i = Number(new URL(req.url).pathname.slice(6));
      if (i === 0) return new Promise<Response>(() => {});
      await Bun.sleep(400);
      return new Response(article(i), { headers: { "content-type": "text/html" } });
    },
  });
  const searx = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch() {
      await Bun.sleep(300);
      return Response.json({
        results: Array.from({ length: 7 }, (_, i) => ({
          url: `http://127.0.0.1:${pages.port}/page/${i}`,
          title: `Page ${i}`,
          content: "base editing",
        })),
      });
    },
  });
  const answer = Array.from({ length: 1000 }, (_, i) => (i % 25 === 24 ? "cited [S1]. " : "word ")).join("");
  const chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { delayMs: 300, text: '{"kind":"general","language":"en","queries":["base editing","how base editors work"]}' }
      : { delayMs: 500, text: answer, chunkChars: answer.length / 100, chunkDelayMs: 25 },
  );
  const cfg = loadConfig(
    {
      SEARXNG_URL: `http://127.0.0.1:${searx.port}`,
      ACADEMIC_PROVIDERS: "none",
      OPENAI_BASE_URL: chat.openaiBase,
      FETCH_ALLOW_PRIVATE: "true",
    },
    "/nonexistent",
  );
  const engine = buildEngine(cfg, createLogger("silent"));
  const walls: number[] = [];
  let breakdown = "";
  try {
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const first: Record<string, number> = {};
      let firstAnswer = 0;
      await engine.run("How does base editing work?", {
        signal: AbortSignal.timeout(60_000),
        reader: { accounts: [] },
        emit: (e: RunEvent) => {
          const t = performance.now() - t0;
          if (e.type === "progress") first[e.stage] ??= t;
          if (e.type === "answer" && !firstAnswer) firstAnswer = t;
        },
      });
      walls.push(performance.now() - t0);
      breakdown = `planning from 0, searching from ${first.searching?.toFixed(0)} ms, reading from ${first.reading?.toFixed(0)} ms, writing from ${first.writing?.toFixed(0)} ms, first answer token ${firstAnswer.toFixed(0)} ms, done ${walls.at(-1)!.toFixed(0)} ms`;
    }
  } finally {
    pages.stop(true);
    searx.stop(true);
    chat.stop();
  }
  walls.sort((a, b) => a - b);
  const median = walls[Math.floor(walls.length / 2)]!;
  // Ideal: plan ‖ search of the question (300), search of the plan's queries (300), pages read in
  // parallel (400, the stuck one abandoned at once), writer 500 + 1,000 tokens / 400 per s (2,500).
  const ideal = 300 + 300 + 400 + 500 + 2500;
  return [
    `Critical path of a run (median of ${runs}): ${median.toFixed(0)} ms; ideal ${ideal} ms; ratio ${(median / ideal).toFixed(2)}× (target ≤ 1.10×).`,
    `Last run: ${breakdown}.`,
  ].join("\n");
}

if (import.meta.main) console.log(await benchCriticalPath());
