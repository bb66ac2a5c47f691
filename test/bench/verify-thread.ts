import { existsSync } from "node:fs";
import { join } from "node:path";
import { createParsePool } from "../../src/research/read/parse-pool.ts";
import type { Source } from "../../src/research/types.ts";
import { type VerifyInput, verifyInput } from "../../src/research/write/verify/verify-answer.ts";

// WiCE's dev split, read in place (../shared/data/wice/), as test/bench/claims.ts reads it.
const GOLD = join(import.meta.dir, "../../../shared/data/wice/dev.jsonl.gz");

/** One run's worth: five WiCE pages as sources (each repeated to `chars` when given), a ~300-word answer citing them. */
function oneRun(rows: { claim: string; evidence: string[] }[], chars = 0): VerifyInput {
  const picked = rows.filter((r) => r.evidence.length >= 60 && r.evidence.length <= 200).slice(0, 5);
  const texts = picked.map((r) => {
    let t = r.evidence.join(" ");
    while (t.length < chars) t = `${t} ${t}`;
    return chars ? t.slice(0, chars) : t;
  });
  const parts: string[] = [];
  for (let i = 0, words = 0; words < 300; i++) {
    const r = rows[i % rows.length]!;
    const own = picked.indexOf(r as (typeof picked)[number]);
    const cites = own >= 0 ? [own] : [i % 5, (i + 1) % 5];
    parts.push(`${r.claim.replace(/[.!?]$/, "")} ${cites.map((s) => `[S${s + 1}]`).join("")}.`);
    words += r.claim.split(/\s+/).length;
  }
  const sources: Source[] = texts.map((_, i) => ({
    id: `S${i + 1}`,
    title: `Page ${i + 1}`,
    url: `https://example.org/${i}`,
    type: "web",
    provider: "searxng",
    snippet: "",
  }));
  return { answer: parts.join(" "), sources, texts: texts.map((t, i) => [`S${i + 1}`, t]), language: "en" };
}

/** The longest the event loop went without a turn while `work` ran, and how long `work` took. */
async function stall(work: () => Promise<unknown>): Promise<[number, number]> {
  let last = performance.now();
  let worst = 0;
  let on = true;
  const tick = () => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
    if (on) setImmediate(tick);
  };
  const t0 = performance.now();
  setImmediate(tick);
  await work();
  const took = performance.now() - t0;
  on = false;
  return [Math.max(worst, performance.now() - last), took];
}

const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

/**
 * What the server's thread pays for one run's claim check: inline, all of it; on the parse
 * pool's worker, copying the input there and the result back
 * (docs/decisions/0109-verification-off-the-server-thread.md).
 */
export async function benchVerifyThread(): Promise<string> {
  if (!existsSync(GOLD)) return `Verification thread: skipped — ${GOLD} is missing.`;
  const rows = new TextDecoder()
    .decode(Bun.gunzipSync(new Uint8Array(await Bun.file(GOLD).arrayBuffer())))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { claim: string; evidence: string[] });
  const pool = createParsePool({ size: 1 });
  const lines = [
    "| one run's claim check | longest loop stall p50 | p95 | check's wall time p50 | p95 |",
    "|---|---|---|---|---|",
  ];
  try {
    for (const [label, chars] of [
      ["five WiCE pages (~39 k characters)", 0],
      ["five pages at the 150,000-character cap", 150_000],
    ] as const) {
      const input = oneRun(rows, chars);
      for (const [where, run] of [
        ["on the server's thread", async () => verifyInput(input)],
        ["on a parse worker", () => pool.verify(input)],
      ] as const) {
        const stalls: number[] = [];
        const walls: number[] = [];
        for (let round = 0; round < 60; round++) {
          const [s, w] = await stall(run);
          if (round < 10) continue; // warm-up: the stemmers' caches, the worker's start
          stalls.push(s);
          walls.push(w);
        }
        const f = (x: number) => `${x.toFixed(1)} ms`;
        lines.push(
          `| ${label}, ${where} | ${f(q(stalls, 0.5))} | ${f(q(stalls, 0.95))} | ${f(q(walls, 0.5))} | ${f(q(walls, 0.95))} |`,
        );
      }
    }
  } finally {
    pool.close();
  }
  return lines.join("\n");
}
