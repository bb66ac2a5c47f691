import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createAccount } from "../../src/auth/accounts.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { tempDir, writeTree } from "../corpus/import/import-fixtures.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const BOB = "bob@team.example";

/** A database with Bob's account, and a folder of one note to import. */
async function setup() {
  const dir = tempDir("rq-clash-");
  const env = { DATABASE_PATH: join(dir, "rq.db"), SIGNUP: "closed" };
  const store = openSqliteStore(env.DATABASE_PATH);
  await createAccount(store, BOB, null, "free");
  store.close();
  const docs = join(writeTree(dir, { "notes/pay.md": "# Pay\n\nThe salary bands for next year are frozen." }), "notes");
  return { env, docs };
}

const listed = async (env: Record<string, string>) =>
  (JSON.parse((await cli(["corpus", "list", "--json"], env)).out).collections as any[]).map((c) => [
    c.name,
    c.owner,
    c.visibility,
    c.documents,
  ]);

describe("one name, several collections, through the CLI", () => {
  test("--shared alone beside Bob's private bobnotes is refused, naming his and corpus share; nothing made", async () => {
    const { env, docs } = await setup();
    expect((await cli(["corpus", "add", docs, "--collection", "bobnotes", "--owner", BOB], env)).code).toBe(0);
    const r = await cli(["corpus", "add", docs, "--collection", "bobnotes", "--shared"], env);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`bobnotes (${BOB}) is private to ${BOB}`);
    expect(r.err).toContain(`research-query corpus share bobnotes --owner ${BOB}`);
    expect(r.err).not.toContain("new collection");
    expect(await listed(env)).toEqual([["bobnotes", BOB, "private", 1]]);
  });

  test("--shared alone beside Bob's shared bobnotes is refused too, naming the flags that add to his", async () => {
    const { env, docs } = await setup();
    await cli(["corpus", "add", docs, "--collection", "bobnotes", "--owner", BOB, "--shared"], env);
    const r = await cli(["corpus", "add", docs, "--collection", "bobnotes", "--shared"], env);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`add to bobnotes (${BOB}) with --owner ${BOB} --shared`);
    expect(await listed(env)).toEqual([["bobnotes", BOB, "shared", 1]]);
  });

  test("corpus remove of a name two collections have removes nothing and asks which; --shared or --owner picks", async () => {
    const { env, docs } = await setup();
    // The one with no owner first: --shared alone makes it while no account has the name.
    expect((await cli(["corpus", "add", docs, "--collection", "bobnotes", "--shared"], env)).code).toBe(0);
    expect((await cli(["corpus", "add", docs, "--collection", "bobnotes", "--owner", BOB], env)).code).toBe(0);
    const asked = await cli(["corpus", "remove", "bobnotes"], env);
    expect(asked.code).toBe(2);
    expect(asked.err).toContain("2 collections are named bobnotes");
    expect(asked.err).toContain(`bobnotes (${BOB}, private: --owner ${BOB})`);
    expect(asked.err).toContain("bobnotes (no owner, shared: --shared)");
    expect(asked.err).toContain("nothing was done");
    expect(await listed(env)).toEqual([
      ["bobnotes", null, "shared", 1],
      ["bobnotes", BOB, "private", 1],
    ]);
    const both = await cli(["corpus", "remove", "bobnotes", "--owner", BOB, "--shared"], env);
    expect(both.code).toBe(2);
    const unowned = await cli(["corpus", "remove", "bobnotes", "--shared"], env);
    expect([unowned.code, unowned.out]).toEqual([0, "removed collection bobnotes (1 document)\n"]);
    expect(await listed(env)).toEqual([["bobnotes", BOB, "private", 1]]);
    // One left: its name is enough.
    expect((await cli(["corpus", "remove", "bobnotes"], env)).code).toBe(0);
    expect(await listed(env)).toEqual([]);
  });
});
