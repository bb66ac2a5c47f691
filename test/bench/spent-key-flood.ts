import { loadConfig } from "../../src/config/load.ts";
import type { Engine } from "../../src/research/types.ts";
import { startServer } from "../../src/server/server.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { createLogger } from "../../src/util/logger.ts";
import { nextTurn } from "../../src/util/turns.ts";
import { sampleSource } from "../helpers/scripted-engine.ts";
import { keyedClient, query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";

/**
 * Section 12: stream runs of one key, one after another, quiet and while 32 clients flood stream
 * calls with a key whose allowance is spent (each refused 429). The server is a child process
 * whose engine waits its turn at each of four stages, as the real one does after each upstream
 * (docs/decisions/0123-arrivals-are-accepted-runs.md); its time is the turns' and the server's.
 */
const ALLOWANCE = 250;

export async function benchSpentKeyFlood(runs = 60, flooders = 32): Promise<string> {
  const proc = Bun.spawn(["bun", import.meta.path, "serve"], { stdout: "pipe", stderr: "inherit" });
  try {
    const url = (await proc.stdout.pipeThrough(new TextDecoderStream()).getReader().read()).value!.trim();
    const { key: good } = await keyedClient(url);
    const { key: spent } = await keyedClient(url);
    for (let i = 0; i < ALLOWANCE; i += 25)
      await Promise.all(Array.from({ length: 25 }, () => query(url, spent, { query: "spend" }).then((r) => r.text())));
    const measure = async () => {
      const t: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await readSse(await query(url, good, { query: "measured" }, {}, "/api/query/stream"));
        t.push(performance.now() - t0);
      }
      t.sort((a, b) => a - b);
      return `p50 ${t[Math.floor(runs / 2)]!.toFixed(1)} ms, p90 ${t[Math.floor(runs * 0.9)]!.toFixed(1)} ms`;
    };
    const quiet = await measure();
    let flooding = true;
    let refused = 0;
    const flood = Array.from({ length: flooders }, async () => {
      while (flooding) {
        const r = await query(url, spent, { query: "flood" }, {}, "/api/query/stream");
        if (r.status === 429) refused++;
        await r.text();
      }
    });
    await Bun.sleep(300);
    const during = await measure();
    flooding = false;
    await Promise.all(flood);
    return `A stream run to its final event, ${runs} one after another: quiet ${quiet}; while ${flooders} clients flood with a spent key ${during} (${refused} calls refused 429 meanwhile).`;
  } finally {
    proc.kill();
  }
}

if (import.meta.main && process.argv[2] === "serve") {
  const engine: Engine = {
    async run(_q, ctx) {
      for (const stage of ["planning", "searching", "reading", "writing"] as const) {
        await nextTurn();
        ctx.emit({ type: "progress", stage, message: stage });
      }
      ctx.emit({ type: "source", source: sampleSource });
      ctx.emit({ type: "answer", delta: "Answer [S1]." });
      return { answer: "Answer [S1].", sources: [sampleSource], writer: "extractive", tokens_in: 1, tokens_out: 1 };
    },
  };
  const env = { PORT: "0", DATABASE_PATH: ":memory:", PLAN_RUNS_FREE: String(ALLOWANCE), LOG_LEVEL: "error" };
  const config = loadConfig(env, "/nonexistent");
  const s = startServer({ config, engine, store: openSqliteStore(":memory:"), logger: createLogger("error") });
  console.log(s.url);
} else if (import.meta.main) console.log(await benchSpentKeyFlood());
