import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount } from "../../src/auth/accounts.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { spawnServe } from "../helpers/serve-process.ts";
import { BATTERY_NOTES, fillCollection, noteInputs } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/** A database with `shared` unowned shared collections (as made before owners) and Alice's private one. */
async function database(dir: string, shared: string[]): Promise<string> {
  const path = join(dir, "rq.db");
  const store = openSqliteStore(path);
  const alice = await createAccount(store, "alice@team.example", null, "free");
  for (const name of shared) await fillCollection(store, name, BATTERY_NOTES.slice(0, 3));
  const own = store.corpus.createCollection({ name: "payroll", ownerId: alice.id, visibility: "private" })!;
  store.corpus.put((own as { id: number }).id, noteInputs(BATTERY_NOTES.slice(3)));
  store.close();
  return path;
}

/** The serve processes started: killed after the tests if a failed check left one running. */
const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null) p.kill("SIGKILL");
});

/** Starts `serve`, waits for its notice of the shared collections, stops it; its stdout as JSON lines, its stderr as text. */
async function serveLog(env: Record<string, string>, notice: string, shared = ["handbook"]) {
  const dir = mkdtempSync(join(tmpdir(), "rq-serve-notice-"));
  const s = await spawnServe({ DATABASE_PATH: await database(dir, shared), ...env }, dir);
  // Every log line is on stdout, warnings too (README "Deployment").
  started.push(s.proc);
  await s.out.until(`"msg":"${notice}"`);
  s.proc.kill("SIGTERM");
  expect(await s.proc.exited).toBe(0);
  const lines = (await s.out.rest())
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, err: await s.err.rest() };
}

const notices = (lines: Record<string, unknown>[]) =>
  lines.filter((l) => String(l.msg).startsWith("shared_collection"));

describe("serve tells at start which collections every account reads, in one line on stdout", () => {
  test("sign-up closed: one info line naming the shared collection, never the private one", async () => {
    const { lines, err } = await serveLog({ SIGNUP: "closed" }, "shared_collections");
    expect(notices(lines)).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "shared_collections",
        count: 1,
        collections: ["handbook"],
        documents: 3,
        message: "every account reads collection handbook (research-query corpus list)",
      }),
    ]);
    expect(err).toBe("");
    expect(JSON.stringify(lines)).not.toContain("payroll");
  });

  test("sign-up open (the default), seven shared collections: one warning, on stdout, naming five", async () => {
    const names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"];
    const { lines, err } = await serveLog({}, "shared_collections_open_signup", names);
    expect(notices(lines)).toEqual([
      expect.objectContaining({
        level: "warn",
        count: 7,
        collections: names.slice(0, 5),
        documents: 21,
        message:
          "every account reads 7 shared collections: a1, a2, a3, a4, a5 and 2 more (research-query corpus list); sign-up is open (SIGNUP=open), so anyone who signs up reads them too: set SIGNUP=closed, or research-query corpus unshare NAME --owner EMAIL",
      }),
    ]);
    // Nothing on stderr: a collector reading stdout, as README "Deployment" says, misses no warning.
    expect(err).toBe("");
    expect(lines.at(-1)).toMatchObject({ msg: "stopped" });
  });
});
