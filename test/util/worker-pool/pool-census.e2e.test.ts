import { expect, test } from "bun:test";
import { join } from "node:path";
import type { CensusReport } from "../../fixtures/pool-census-child.ts";

const CHILD = join(import.meta.dir, "../../fixtures/pool-census-child.ts");

test("the census counts a pool's threads and jobs, and closeAllPools waits until every thread has ended", async () => {
  // In a process of its own: closeAllPools ends every pool of the process it runs in.
  const p = Bun.spawn(["bun", CHILD], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect([code, err]).toEqual([0, ""]);
  // The threads idle at the stop are unref'd (the pool's thread after its last job, the
  // checkpoint thread): waiting on their end alone let the process run dry and exit 0 before
  // the line below was written, as serve did before its `stopped` line.
  const said = JSON.parse(out) as CensusReport;
  expect(said).toEqual({
    before: [{ pool: "census", size: 2, threads: 1, busy: 0, queued: 0, ok: 2, failed: 1, restarts: 1 }],
    left: 0,
    after: [{ pool: "census", size: 2, threads: 0, busy: 0, queued: 0, ok: 2, failed: 1, restarts: 1 }],
  });
});
