import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processLog } from "./process-log.ts";

const MAIN = join(import.meta.dir, "../../src/cli/main.ts");

/** `research-query serve` in its own process, listening: what the e2e tests that need a real process hold. */
export interface ServeProcess {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** http://127.0.0.1:<port> */
  base: string;
  /** Its working directory (and, unless the caller set a database, where its SQLite file is). */
  dir: string;
  /** Its stdout (every log line) and stderr (nothing of ours but a crash), read as they come. */
  out: ReturnType<typeof processLog>;
  err: ReturnType<typeof processLog>;
}

/**
 * Starts `serve` as an operator would, from source, in `dir` (a fresh temporary folder by
 * default), on a port the system picks (PORT=0: no two tests draw the same one), with only PATH
 * of this process's environment and a SQLite file in `dir` unless `env` names a database.
 * Resolves once it logs "listening"; the caller stops it (proc.kill) and removes `dir`.
 */
export async function spawnServe(env: Record<string, string>, dir = mkdtempSync(join(tmpdir(), "rq-serve-"))) {
  const database = env.DATABASE_URL || env.DATABASE_PATH ? {} : { DATABASE_PATH: join(dir, "rq.db") };
  const proc = Bun.spawn(["bun", MAIN, "serve"], {
    cwd: dir,
    env: { PATH: process.env.PATH!, PORT: "0", ...database, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = processLog(proc.stdout);
  const err = processLog(proc.stderr);
  const line = (await out.until('"msg":"listening"')).split("\n").find((l) => l.includes('"msg":"listening"'))!;
  const { port } = new URL((JSON.parse(line) as { url: string }).url);
  return { proc, base: `http://127.0.0.1:${port}`, dir, out, err } satisfies ServeProcess;
}
