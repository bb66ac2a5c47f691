import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createAccount } from "../../src/auth/accounts.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { tempDir, writeTree } from "../corpus/import/import-fixtures.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const ALICE = "alice@team.example";
const BOB = "bob@team.example";

/** A database with Alice's and Bob's accounts, and a folder of two notes to import. */
async function setup() {
  const dir = tempDir("rq-owners-");
  const env = { DATABASE_PATH: join(dir, "rq.db"), SIGNUP: "closed" };
  const store = openSqliteStore(env.DATABASE_PATH);
  for (const email of [ALICE, BOB]) await createAccount(store, email, null, "free");
  store.close();
  const docs = join(
    writeTree(dir, {
      "notes/pay.md": "# Pay bands\n\nThe salary bands for next year are frozen.",
      "notes/trip.md": "# Offsite\n\nThe offsite is in Lisbon in May.",
    }),
    "notes",
  );
  return { env, docs };
}

const listed = async (env: Record<string, string>) =>
  (JSON.parse((await cli(["corpus", "list", "--json"], env)).out).collections as any[]).map((c) => [
    c.name,
    c.owner,
    c.visibility,
    c.documents,
  ]);

describe("corpus add: whose a new collection is", () => {
  test("a new collection without --owner or --shared is a usage error, and nothing is made", async () => {
    const { env, docs } = await setup();
    const r = await cli(["corpus", "add", docs, "--collection", "hr"], env);
    expect(r.code).toBe(2);
    expect(r.err).toContain("hr is a new collection: say whose it is with --owner EMAIL");
    expect(r.err).toContain("usage: research-query corpus add PATH...");
    expect(await listed(env)).toEqual([]);
  });

  test("--owner makes it private to that account, --shared shared; an unknown --owner is named, exit 2", async () => {
    const { env, docs } = await setup();
    const hr = await cli(["corpus", "add", docs, "--collection", "hr", "--owner", ALICE], env);
    expect([hr.code, hr.out]).toEqual([0, expect.stringMatching(/^hr: 2 added/)]);
    expect(hr.err).toStartWith(`new collection hr (${ALICE}): private to ${ALICE}\n`);
    expect((await cli(["corpus", "add", docs, "--collection", "handbook", "--shared"], env)).code).toBe(0);
    // Names are per owner: Bob may have an hr too.
    expect((await cli(["corpus", "add", docs, "--collection", "hr", "--owner", BOB, "--shared"], env)).code).toBe(0);
    const nobody = await cli(["corpus", "add", docs, "--collection", "x", "--owner", "carol@team.example"], env);
    expect([nobody.code, nobody.err.split("\n")[0]]).toEqual([
      2,
      "research-query corpus add: no account has the email carol@team.example",
    ]);

    expect(await listed(env)).toEqual([
      ["handbook", null, "shared", 2],
      ["hr", ALICE, "private", 2],
      ["hr", BOB, "shared", 2],
    ]);
    const table = (await cli(["corpus", "list"], env)).out.trimEnd().split("\n");
    expect(table.map((l) => l.split(/\s{2,}/).slice(0, 4))).toEqual([
      ["NAME", "OWNER", "VISIBILITY", "DOCUMENTS"],
      ["handbook", "-", "shared", "2"],
      ["hr", ALICE, "private", "2"],
      ["hr", BOB, "shared", "2"],
    ]);
    // Two owners have an hr: the operator says whose.
    const which = await cli(["corpus", "list", "--collection", "hr"], env);
    expect([which.code, which.err]).toEqual([
      2,
      expect.stringContaining("several accounts have a collection named hr"),
    ]);
    const alices = JSON.parse(
      (await cli(["corpus", "list", "--collection", "hr", "--owner", ALICE, "--json"], env)).out,
    );
    expect(alices.collection).toMatchObject({ name: "hr", owner: ALICE, visibility: "private", documents: 2 });
  });

  test("adding to an existing collection needs neither flag; a flag that disagrees imports nothing", async () => {
    const { env, docs } = await setup();
    const one = join(docs, "pay.md");
    expect((await cli(["corpus", "add", one, "--collection", "hr", "--owner", ALICE], env)).code).toBe(0);
    const again = await cli(["corpus", "add", join(docs, "trip.md"), "--collection", "hr"], env);
    expect([again.code, again.out]).toEqual([0, expect.stringMatching(/^hr: 1 added/)]);
    expect(again.err).not.toContain("new collection");

    const shared = await cli(["corpus", "add", docs, "--collection", "hr", "--owner", ALICE, "--shared"], env);
    expect(shared.code).toBe(2);
    expect(shared.err).toContain(`hr (${ALICE}) is private to ${ALICE}, and an import does not change that`);
    expect(shared.err).toContain(`research-query corpus share hr --owner ${ALICE}`);
    // --shared alone names the collection with no owner; Alice's hr is what the operator means, so
    // no second hr with no owner is made beside it (corpus-name-clash.e2e.test.ts).
    const unowned = await cli(["corpus", "add", one, "--collection", "hr", "--shared"], env);
    expect([unowned.code, unowned.err]).toEqual([2, expect.stringContaining(`hr (${ALICE}) is private to ${ALICE}`)]);

    expect((await cli(["corpus", "add", one, "--collection", "handbook", "--shared"], env)).code).toBe(0);
    const priv = await cli(["corpus", "add", docs, "--collection", "handbook", "--owner", ALICE], env);
    // Alice has no handbook: hers is a new one, private to her.
    expect([priv.code, priv.err]).toEqual([0, expect.stringContaining(`new collection handbook (${ALICE})`)]);
    expect((await cli(["corpus", "share", "handbook", "--owner", ALICE], env)).code).toBe(0);
    const owned = await cli(["corpus", "add", one, "--collection", "handbook", "--owner", ALICE], env);
    expect(owned.code).toBe(2);
    expect(owned.err).toContain(`handbook (${ALICE}) is shared (every account reads it)`);
    expect(await listed(env)).toEqual([
      ["handbook", null, "shared", 1],
      ["handbook", ALICE, "shared", 2],
      ["hr", ALICE, "private", 2],
    ]);
  });
});

describe("corpus share and unshare", () => {
  test("share makes a collection shared (again: no change); sign-up open gets a note, closed none", async () => {
    const { env, docs } = await setup();
    await cli(["corpus", "add", docs, "--collection", "hr", "--owner", ALICE], env);
    const r = await cli(["corpus", "share", "hr"], env);
    expect([r.code, r.out, r.err]).toEqual([0, `hr (${ALICE}) is now shared (every account reads it)\n`, ""]);
    const again = await cli(["corpus", "share", "hr", "--json"], { ...env, SIGNUP: "open" });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out).collection).toMatchObject({ name: "hr", owner: ALICE, visibility: "shared" });
    expect(again.err).toBe("note: sign-up is open (SIGNUP=open): anyone who signs up reads it too\n");
    const none = await cli(["corpus", "share", "nope"], env);
    expect([none.code, none.err]).toEqual([1, "no collection named nope\n"]);
  });

  test("unshare makes it private to --owner; an unowned one becomes theirs; a second of that name is refused", async () => {
    const { env, docs } = await setup();
    const noFlag = await cli(["corpus", "unshare", "hr"], env);
    expect([noFlag.code, noFlag.err.split("\n")[0]]).toEqual([
      2,
      "research-query corpus unshare: missing --owner EMAIL",
    ]);

    // An hr with no owner, made while no account has one (beside Bob's, --shared alone is refused).
    await cli(["corpus", "add", docs, "--collection", "hr", "--shared"], env);
    await cli(["corpus", "add", docs, "--collection", "hr", "--owner", BOB, "--shared"], env);
    const own = await cli(["corpus", "unshare", "hr", "--owner", BOB], env);
    expect([own.code, own.out]).toEqual([0, `hr (${BOB}) is now private to ${BOB}\n`]);

    await cli(["corpus", "add", docs, "--collection", "handbook", "--shared"], env);
    const handed = await cli(["corpus", "unshare", "handbook", "--owner", ALICE, "--json"], env);
    expect(handed.code).toBe(0);
    expect(JSON.parse(handed.out).collection).toMatchObject({ name: "handbook", owner: ALICE, visibility: "private" });

    // Bob has a private hr already: the unowned hr cannot become his as well.
    const refused = await cli(["corpus", "unshare", "hr", "--owner", BOB], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`hr (${BOB}) is already private, and hr with no owner cannot become ${BOB}'s too`);
    const missing = await cli(["corpus", "unshare", "handbook", "--owner", BOB], env);
    expect([missing.code, missing.err]).toEqual([
      1,
      `no collection named handbook of ${BOB} or with no owner (${ALICE} has one)\n`,
    ]);
    expect(await listed(env)).toEqual([
      ["handbook", ALICE, "private", 2],
      ["hr", null, "shared", 2],
      ["hr", BOB, "private", 2],
    ]);
  });
});
