import { spawnJson } from "./processes.ts";
import { type WrkResult, wrk } from "./wrk.ts";

/** A bench server process (bench-server.ts); `env` is added to this process's environment. */
export function spawnServer(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ info: { port: number; key?: string }; kill: () => void }> {
  return spawnJson(["bun", `${import.meta.dir}/bench-server.ts`, ...args], { ...process.env, ...env });
}

// A different well-formed bad key on every request: what a flood of guesses costs (no
// request is answered from the unknown-key memory, each one reads SQLite).
export const RANDOM_KEY_LUA = `local counter = 0
setup = function(thread) thread:set("id", counter); counter = counter + 1 end
init = function() math.randomseed(os.time() * 100 + id) end
local chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
request = function()
  local t = {}
  for i = 1, 32 do local r = math.random(1, #chars); t[i] = chars:sub(r, r) end
  wrk.headers["authorization"] = "Bearer rq-" .. table.concat(t)
  return wrk.format()
end`;

const fmt = (r: WrkResult) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms`;

/** Section 2: refusal, accepted instant run, and a bare Elysia route, same machine, same run. */
export async function benchServing(): Promise<string> {
  if (!Bun.which("wrk")) return "serving: skipped — wrk is not installed (apt-get install -y wrk)";
  const core = await spawnServer(["core"]);
  const bare = await spawnServer(["bare"]);
  const body = JSON.stringify({ query: "What is base editing?" });
  try {
    const results: Record<string, WrkResult[]> = { a: [], r: [], b: [], c: [] };
    for (let round = 0; round < 3; round++) {
      results.c!.push(
        await wrk(
          `http://127.0.0.1:${bare.info.port}/api/query`,
          { "content-type": "application/json", authorization: "Bearer rq-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
          body,
        ),
      );
      results.a!.push(
        await wrk(
          `http://127.0.0.1:${core.info.port}/api/query`,
          { "content-type": "application/json", authorization: "Bearer rq-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
          body,
        ),
      );
      results.r!.push(
        await wrk(`http://127.0.0.1:${core.info.port}/api/query`, { "content-type": "application/json" }, body, {
          threads: 2,
          conns: 64,
          seconds: 5,
          lua: RANDOM_KEY_LUA,
        }),
      );
      results.b!.push(
        await wrk(
          `http://127.0.0.1:${core.info.port}/api/query`,
          { "content-type": "application/json", authorization: `Bearer ${core.info.key}` },
          body,
          { threads: 2, conns: 16, seconds: 5 },
        ),
      );
    }
    const med = (xs: WrkResult[]) => xs.slice().sort((x, y) => x.rps - y.rps)[1]!;
    const a = med(results.a!),
      r = med(results.r!),
      b = med(results.b!),
      c = med(results.c!);
    return [
      "Serving overhead (wrk, loopback, median of 3 rounds of 5 s; (a)/(c) 64 connections, (b) 16):",
      "",
      "| case | result |",
      "|---|---|",
      `| (a) /api/query refused for a bad key (401 envelope) | ${fmt(a)} |`,
      `| (a′) the same, a different bad key on every request (each one reads SQLite) | ${fmt(r)} |`,
      `| (b) /api/query accepted, engine answers at once (2 SQLite commits per run: acceptance, finish + 8 timeline rows) | ${fmt(b)} |`,
      `| (c) bare Elysia route returning the same JSON | ${fmt(c)} |`,
      "",
      `(a) ÷ (c) = ${((a.rps / c.rps) * 100).toFixed(0)} % (target ≥ 50 %); (a′) ÷ (c) = ${((r.rps / c.rps) * 100).toFixed(0)} %.`,
    ].join("\n");
  } finally {
    core.kill();
    bare.kill();
  }
}

if (import.meta.main) console.log(await benchServing());
