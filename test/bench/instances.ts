import { freshDatabase, postgresTests } from "../helpers/postgres.ts";
import { benchHeldStreams } from "./held-streams.ts";
import { RANDOM_KEY_LUA, spawnServer } from "./serving.ts";
import { type WrkResult, wrk } from "./wrk.ts";

type Backend = "sqlite" | "postgres";
type Instance = Awaited<ReturnType<typeof spawnServer>>;

/** `n` bench servers on one new database of `backend`; the first makes the account and key. */
async function instances(backend: Backend, n: number): Promise<{ servers: Instance[]; key: string }> {
  const env: Record<string, string> =
    backend === "postgres"
      ? { BENCH_DATABASE_URL: await freshDatabase() }
      : { BENCH_DB_PATH: `/tmp/rq-bench-shared-${crypto.randomUUID()}.db` };
  const first = await spawnServer(["core"], env);
  const key = first.info.key!;
  const servers = [first];
  for (let i = 1; i < n; i++) servers.push(await spawnServer(["core"], { ...env, BENCH_KEY: key }));
  return { servers, key };
}

/** One wrk per instance at once (as a load balancer would spread them), connections split evenly. */
async function spread(
  servers: Instance[],
  headers: Record<string, string>,
  o: { conns: number; seconds: number; lua?: string },
): Promise<WrkResult> {
  const body = JSON.stringify({ query: "What is base editing?" });
  const each = await Promise.all(
    servers.map((s) =>
      wrk(`http://127.0.0.1:${s.info.port}/api/query`, { "content-type": "application/json", ...headers }, body, {
        threads: 1,
        conns: Math.max(1, Math.floor(o.conns / servers.length)),
        seconds: o.seconds,
        lua: o.lua,
      }),
    ),
  );
  return {
    rps: each.reduce((a, r) => a + r.rps, 0),
    p50ms: Math.max(...each.map((r) => r.p50ms)),
    p99ms: Math.max(...each.map((r) => r.p99ms)),
    non2xx: each.reduce((a, r) => a + r.non2xx, 0),
  };
}

const ROUNDS = 3;
const med = (xs: WrkResult[]) => xs.slice().sort((x, y) => x.rps - y.rps)[Math.floor(xs.length / 2)]!;
const fmt = (r: WrkResult) => `${r.rps.toFixed(0)} /s (p99 ${r.p99ms.toFixed(1)} ms)`;

/**
 * Section 8: the same server on SQLite and on PostgreSQL, as one instance and as two on one
 * database: refusals of a flood of distinct bad keys (every one a database read) and accepted
 * runs whose engine answers at once (acceptance + finish, the allowance counted), then
 * held streams on PostgreSQL and on SQLite.
 */
export async function benchInstances(): Promise<string> {
  if (!Bun.which("wrk")) return "instances: skipped — wrk is not installed (apt-get install -y wrk)";
  if (!postgresTests) return "instances: skipped — PostgreSQL is not installed (apt-get install -y postgresql)";
  const rows: string[] = [];
  for (const backend of ["sqlite", "postgres"] as const) {
    for (const n of [1, 2]) {
      const { servers, key } = await instances(backend, n);
      try {
        const refused: WrkResult[] = [];
        const accepted: WrkResult[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          refused.push(await spread(servers, {}, { conns: 64, seconds: 3, lua: RANDOM_KEY_LUA }));
          accepted.push(await spread(servers, { authorization: `Bearer ${key}` }, { conns: 16, seconds: 3 }));
        }
        rows.push(`| ${backend} | ${n} | ${fmt(med(refused))} | ${fmt(med(accepted))} |`);
      } finally {
        for (const s of servers) s.kill();
      }
    }
  }
  // The same held streams on each database, one after the other, so their ratio comes from one run.
  const held = await benchHeldStreams(1000, 15_000, [4000], { BENCH_DATABASE_URL: await freshDatabase() });
  const heldSqlite = await benchHeldStreams(1000, 15_000, [4000]);
  return [
    `Instances on one database (wrk on loopback, one wrk per instance at once, median of ${ROUNDS} rounds of 3 s;`,
    "refusals: 64 connections, a different bad key every request; accepted: 16 connections, the engine answers at once).",
    "Everything shares this machine's 2 cores: wrk, the instances and PostgreSQL; a second instance adds no core.",
    "",
    "| database | instances | refusals (distinct bad keys) | accepted runs |",
    "|---|---|---|---|",
    ...rows,
    "",
    "Held streams on PostgreSQL (one instance; the runs and their live events in PostgreSQL):",
    "",
    held,
    "",
    "The same held streams on SQLite (one instance), for the ratio:",
    "",
    heldSqlite,
  ].join("\n");
}

if (import.meta.main) console.log(await benchInstances());
