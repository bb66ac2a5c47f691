import type { Subprocess } from "bun";
import { openStore } from "../../../src/store/open.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { processLog } from "../../helpers/process-log.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { startTestServer, testConfig } from "../../helpers/server.ts";
import { DYING } from "../../runs/instances/leased-server.ts";

/**
 * A server in a child process (a test kills it -9) on a database and a spool it shares with the
 * test's servers, with a short lease and an import worker that never finishes: a file it
 * received stays `indexing` until the others judge it dead.
 */
export async function spawnUploader(url: string, uploadDir: string): Promise<{ url: string; proc: Subprocess }> {
  const proc = Bun.spawn(["bun", import.meta.path, url, uploadDir], { stdout: "pipe", stderr: "inherit" });
  const out = await processLog(proc.stdout).until('"listening"');
  const line = out.split("\n").find((l) => l.includes('"listening"'))!;
  return { url: (JSON.parse(line) as { url: string }).url, proc };
}

if (import.meta.main) {
  const [url, uploadDir] = process.argv.slice(2);
  const where: Record<string, string> = url!.startsWith("postgres://")
    ? { DATABASE_URL: url! }
    : { DATABASE_PATH: url! };
  const env: Record<string, string> = { ...where, UPLOAD_DIR: uploadDir!, LOG_LEVEL: "info" };
  startTestServer({
    env,
    store: await openStore(testConfig(env)),
    logger: createLogger("info"),
    engine: scriptedEngine(),
    lease: DYING,
    imports: { worker: { workerUrl: new URL("../../fixtures/hanging-import-worker.ts", import.meta.url) } },
  });
}
