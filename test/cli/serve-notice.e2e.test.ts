import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount } from "../../src/auth/accounts.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { processLog } from "../helpers/process-log.ts";
import { BATTERY_NOTES, fillCollection, noteInputs } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { MAIN } from "./run-cli.ts";

useLongTimeout();

/** A database with an unowned shared collection (as one made before owners) and Alice's private one. */
async function database(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), "rq-serve-notice-")), "rq.db");
  const store = openSqliteStore(path);
  const alice = await createAccount(store, "alice@team.example", null, "free");
  await fillCollection(store, "handbook", BATTERY_NOTES.slice(0, 3));
  const own = store.corpus.createCollection({ name: "payroll", ownerId: alice.id, visibility: "private" })!;
  store.corpus.put((own as { id: number }).id, noteInputs(BATTERY_NOTES.slice(3)));
  store.close();
  return path;
}

/** Starts `serve`, waits for its notice of the shared collection, stops it; its log lines (stdout, stderr) as JSON. */
async function serveLog(env: Record<string, string>, notice: string) {
  const port = 10000 + Math.floor(Math.random() * 20000);
  const p = Bun.spawn(["bun", MAIN, "serve"], {
    cwd: mkdtempSync(join(tmpdir(), "rq-serve-")),
    env: { PATH: process.env.PATH!, PORT: String(port), DATABASE_PATH: await database(), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = processLog(p.stdout);
  const err = processLog(p.stderr);
  // Info lines go to stdout, warnings to stderr: the notice is on one of them.
  await (notice === "shared_collection" ? out : err).until(`"msg":"${notice}"`);
  p.kill("SIGTERM");
  expect(await p.exited).toBe(0);
  const parse = (text: string) =>
    text
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { out: parse(await out.rest()), err: parse(await err.rest()) };
}

const notices = (lines: Record<string, unknown>[]) =>
  lines.filter((l) => String(l.msg).startsWith("shared_collection"));

describe("serve tells at start which collections every account reads", () => {
  test("sign-up closed: an info line for the shared collection, none for the private one", async () => {
    const { out, err } = await serveLog({ SIGNUP: "closed" }, "shared_collection");
    expect(notices(out)).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "shared_collection",
        collection: "handbook",
        owner: null,
        documents: 3,
        message: "every account can read collection handbook (no owner, 3 documents) through its answers",
      }),
    ]);
    expect(notices(err)).toEqual([]);
    expect(JSON.stringify([...out, ...err])).not.toContain("payroll");
  });

  test("sign-up open (the default): a warning that anyone who signs up reads it", async () => {
    const { out, err } = await serveLog({}, "shared_collection_open_signup");
    expect(notices(err)).toEqual([
      expect.objectContaining({
        level: "warn",
        collection: "handbook",
        owner: null,
        documents: 3,
        message: expect.stringContaining("sign-up is open (SIGNUP=open): anyone who signs up can read it too"),
      }),
    ]);
    expect(notices(out)).toEqual([]);
    expect(JSON.stringify([...out, ...err])).not.toContain("payroll");
  });
});
