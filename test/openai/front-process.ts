import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { MAIN } from "../cli/run-cli.ts";
import { processLog } from "../helpers/process-log.ts";

/** `research-query openai` in its own process, listening. */
export interface FrontProcess {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Its stdout (every log line), read as it comes. */
  out: ReturnType<typeof processLog>;
  /** The official SDK pointed at this front (`/v1`), with `apiKey`; no retries unless asked. */
  sdk(apiKey: string, maxRetries?: number): OpenAI;
  stop(): Promise<void>;
}

/**
 * Starts `openai` as an operator would, from source, in a fresh folder with only PATH of this
 * process's environment, on a port the system picks. Resolves once it logs "listening".
 */
export async function spawnFront(args: string[], env: Record<string, string> = {}): Promise<FrontProcess> {
  const proc = Bun.spawn(["bun", MAIN, "openai", "--port", "0", ...args], {
    cwd: mkdtempSync(join(tmpdir(), "rq-openai-")),
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? "/tmp", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = processLog(proc.stdout);
  const line = (await out.until('"msg":"listening"')).split("\n").find((l) => l.includes('"msg":"listening"'))!;
  const url = (JSON.parse(line) as { url: string }).url;
  return {
    proc,
    url,
    out,
    sdk: (apiKey, maxRetries = 0) => new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries }),
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
