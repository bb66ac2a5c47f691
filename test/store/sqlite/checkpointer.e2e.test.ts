import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/**
 * The WAL checkpoint thread never keeps a process alive
 * (docs/decisions/0110-the-first-event-before-the-engine.md): a process that opened the server's
 * store and has nothing left to do exits, whether or not it closed the store.
 */
const dir = mkdtempSync(join(tmpdir(), "rq-checkpointer-exit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPEN = new URL("../../../src/store/sqlite/open.ts", import.meta.url).pathname;

async function child(name: string, close: boolean): Promise<{ code: number | null; out: string }> {
  const program = `
    import { openSqliteStore } from ${JSON.stringify(OPEN)};
    const s = openSqliteStore(${JSON.stringify(join(dir, `${name}.db`))}, { checkpointThread: true });
    const auto = () => s.raw.query("PRAGMA wal_autocheckpoint").get().wal_autocheckpoint;
    for (let i = 0; auto() !== 0; i++) {
      if (i === 2000) throw new Error("the thread never started");
      await Bun.sleep(5);
    }
    s.raw.exec("CREATE TABLE scratch (x BLOB)");
    for (let i = 0; i < 100; i++) s.raw.run("INSERT INTO scratch VALUES (randomblob(6000))");
    ${close ? "s.close();" : ""}
    console.log("done");
  `;
  const proc = Bun.spawn([process.execPath, "-e", program], { stdout: "pipe", stderr: "inherit" });
  // A bound on a process that would never end, not a measure: the test's own timeout is longer.
  const bound = setTimeout(() => proc.kill("SIGKILL"), 20_000);
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  clearTimeout(bound);
  return { code: proc.exitCode, out: out.trim() };
}

describe("the WAL checkpoint thread and the process", () => {
  test("a process that closed its store exits", async () => {
    expect(await child("closed", true)).toEqual({ code: 0, out: "done" });
  });

  test("a process that didn't close its store exits too", async () => {
    expect(await child("open", false)).toEqual({ code: 0, out: "done" });
  });
});
