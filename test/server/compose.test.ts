import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { composeServer } from "../../src/server/compose.ts";
import { createLogger } from "../../src/util/logger.ts";

/** The composition root is one module (docs/decisions/0134-one-composition-root.md). */
const SRC = join(import.meta.dir, "../../src");
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
const callers = (call: RegExp) =>
  sources(SRC)
    .filter((f) => call.test(readFileSync(f, "utf8")))
    .map((f) => relative(SRC, f))
    .sort();

test("the server is wired in one place: only server/compose.ts starts it, and serve's store and engine are built there", () => {
  expect(callers(/\bstartServer\(/)).toEqual(["server/compose.ts", "server/server.ts"]);
  // The run service alone (`ask`, MCP's local mode) builds its own engine, with no server around it.
  expect(callers(/\bbuildEngine\(/)).toEqual([
    "research/build-engine.ts",
    "runs/local/local-runs.ts",
    "server/compose.ts",
  ]);
  // `serve` itself handles the process only: its signals, the stop's grace, the process's
  // threads ended before the exit, the build's version.
  const serveImports = [...readFileSync(join(SRC, "cli/serve.ts"), "utf8").matchAll(/from "([^"]+)"/g)].map(
    (m) => m[1],
  );
  expect(serveImports.sort()).toEqual([
    "../config/schema.ts",
    "../server/compose.ts",
    "../server/server.ts",
    "../util/logger.ts",
    "../util/worker-pool/pool-census.ts",
    "./version.ts",
  ]);
});

test("composeServer builds the whole server from the configuration alone, and its stop closes what it opened", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rq-compose-"));
  const lines: string[] = [];
  const config = loadConfig(
    { PORT: "0", HOST: "127.0.0.1", DATABASE_PATH: join(dir, "rq.db"), LOG_LEVEL: "info" },
    "/nonexistent",
  );
  const server = await composeServer(
    config,
    createLogger("info", (l) => {
      lines.push(l);
    }),
  );
  let stopped = false;
  try {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // One Metrics for the engine and the server: what is counted into it, /metrics serves.
    server.deps.metrics.upstream.inc({ provider: "probe", outcome: "ok" });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('rq_upstream_calls_total{outcome="ok",provider="probe"} 1');
    expect(metrics).toContain("rq_runs_in_flight 0");
    expect(lines.some((l) => l.includes('"listening"'))).toBe(true);
    await server.stop(1_000);
    stopped = true;
    expect(await fetch(`${server.url}/healthz`).catch(() => "closed")).toBe("closed");
  } finally {
    if (!stopped) await server.stop(1_000);
    rmSync(dir, { recursive: true, force: true });
  }
});
