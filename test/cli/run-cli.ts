import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PageServer, startPageServer } from "../fixtures/page-server.ts";
import { type SearchFixtures, startSearchFixtures } from "../fixtures/search-servers.ts";

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

/** The page and search fixtures a CLI test file asks against: started before its tests, stopped after. */
export function useCliFixtures(): { pages: PageServer; search: SearchFixtures } {
  const fx = {} as { pages: PageServer; search: SearchFixtures };
  beforeAll(() => {
    fx.pages = startPageServer();
    fx.search = startSearchFixtures(fx.pages.base);
  });
  afterAll(() => {
    fx.pages.stop();
    fx.search.stop();
  });
  return fx;
}
