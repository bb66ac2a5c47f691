import type { Database } from "bun:sqlite";
import type { Subprocess } from "bun";
import type { Engine } from "../../../src/research/types.ts";
import type { LeaseTimings } from "../../../src/runs/instances/instance-lease.ts";
import type { RunningServer } from "../../../src/server/server.ts";
import { openStore } from "../../../src/store/open.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { processLog } from "../../helpers/process-log.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { startTestServer, testConfig } from "../../helpers/server.ts";

/**
 * Servers on one SQLite file with short leases, in this process or in a child process that a
 * test can kill -9 (README "Instances on one database"). A live instance renews every 100 ms
 * and keeps a lease far longer than any stall of a loaded test machine; one that is meant to
 * die has a short lease, so its runs are judged within a test's patience.
 */
export const LIVE: LeaseTimings = { heartbeatMs: 100, leaseMs: 10_000 };
export const DYING: LeaseTimings = { heartbeatMs: 100, leaseMs: 1_000 };

/** Its SQLite connection for checks, and its warnings and errors. */
export interface LeasedServer extends RunningServer {
  sql: Database;
  logs: string[];
}

export function startLeased(engine: Engine, path: string, lease: LeaseTimings = LIVE): LeasedServer {
  const logs: string[] = [];
  const logger = createLogger("warn", (line) => {
    logs.push(line);
  });
  return Object.assign(startTestServer({ engine, env: { DATABASE_PATH: path, LOG_LEVEL: "warn" }, logger, lease }), {
    logs,
  });
}

/** A server in a child process whose runs never end on their own: only a kill stops it. */
export async function spawnLeased(
  /** A SQLite file, or a postgres:// URL. */
  path: string,
  lease: LeaseTimings = DYING,
): Promise<{ url: string; proc: Subprocess }> {
  const proc = Bun.spawn(["bun", import.meta.path, path, String(lease.heartbeatMs), String(lease.leaseMs)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await processLog(proc.stdout).until('"listening"');
  const line = out.split("\n").find((l) => l.includes('"listening"'))!;
  return { url: (JSON.parse(line) as { url: string }).url, proc };
}

if (import.meta.main) {
  // A postgres:// "path" is a database URL: the same server on PostgreSQL.
  const [path, heartbeatMs, leaseMs] = process.argv.slice(2);
  const where: Record<string, string> = path!.startsWith("postgres://")
    ? { DATABASE_URL: path! }
    : { DATABASE_PATH: path! };
  const env: Record<string, string> = { ...where, LOG_LEVEL: "info" };
  startTestServer({
    env,
    store: await openStore(testConfig(env)),
    logger: createLogger("info"),
    engine: scriptedEngine({ hang: true }),
    lease: { heartbeatMs: Number(heartbeatMs), leaseMs: Number(leaseMs) },
  });
}
