import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const MAIN = join(import.meta.dir, "../../src/cli/main.ts");

/** Runs the CLI as a developer would, in a fresh directory with only the given environment. */
export async function cli(
  args: string[],
  env: Record<string, string> = {},
  stdin?: string,
  cwd = mkdtempSync(join(tmpdir(), "rq-cli-")),
) {
  const p = Bun.spawn(["bun", MAIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? "/tmp", ...env },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code, cwd };
}
