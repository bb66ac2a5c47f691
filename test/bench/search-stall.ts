import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { processLog } from "../helpers/process-log.ts";
import { keyedClient, query } from "../helpers/server.ts";

/** 2,000 characters of the words most documents of the database hold: the hostile question. */
export function commonWordsQuestion(dbPath: string): string {
  const store = openSqliteStore(dbPath);
  try {
    const rows = store.raw
      .query(
        "SELECT substr(term, instr(term, '_') + 1) AS term FROM corpus_terms_vocab ORDER BY doc DESC, term LIMIT 600",
      )
      .all() as {
      term: string;
    }[];
    let q = "";
    for (const { term } of rows) if (/^\p{L}+$/u.test(term) && q.length + term.length < 1_999) q += `${term} `;
    return q.trim();
  } finally {
    store.close();
  }
}

/**
 * How long `/healthz` waits while one run asks the hostile question (README "Searching
 * collections"): `serve` in its own process over the database (SQLite, collections only, no
 * model), /healthz asked in a loop, each call as soon as the last answered, for as long as the
 * run lasts. A row: documents | run | /healthz p50 | /healthz max | calls answered.
 */
export async function benchSearchStall(dbPath: string, label: string): Promise<string> {
  const question = commonWordsQuestion(dbPath);
  const port = 10000 + Math.floor(Math.random() * 20000);
  const p = Bun.spawn(["bun", join(import.meta.dir, "../../src/cli/main.ts"), "serve"], {
    env: {
      PATH: process.env.PATH!,
      PORT: String(port),
      DATABASE_PATH: dbPath,
      DEFAULT_PLAN: "pro",
      LOCAL_SEARCH: "only",
      ACADEMIC_PROVIDERS: "none",
      SIGNUP_PER_HOUR: "1000",
    },
    stdout: "pipe",
    stderr: "ignore",
  });
  try {
    const log = processLog(p.stdout);
    await log.until('"msg":"listening"');
    // Read on, so the server never waits on a full pipe.
    void log.rest();
    const base = `http://127.0.0.1:${port}`;
    const { key } = await keyedClient(base);
    let running = true;
    const waits: number[] = [];
    const poll = (async () => {
      while (running) {
        const t = performance.now();
        await (await fetch(`${base}/healthz`)).arrayBuffer();
        waits.push(performance.now() - t);
      }
    })();
    const t0 = performance.now();
    const env = (await (await query(base, key, { query: question })).json()) as { status: string };
    const runMs = performance.now() - t0;
    running = false;
    await poll;
    waits.sort((a, b) => a - b);
    const s = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);
    return `| ${label} | ${s(runMs)} (${env.status}) | ${s(waits[Math.floor(waits.length / 2)]!)} | **${s(waits.at(-1)!)}** | ${waits.length} |`;
  } finally {
    p.kill("SIGTERM");
    await p.exited;
  }
}

export const STALL_HEAD = [
  "| Collection | the run (status) | /healthz p50 | /healthz max | /healthz calls during the run |",
  "|---|---|---|---|---|",
];
