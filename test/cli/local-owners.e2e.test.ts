import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount } from "../../src/auth/accounts.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import type { CollectionSummary } from "../../src/store/types.ts";
import { mcpSession } from "../mcp/mcp-client.ts";
import { BATTERY_NOTES, fillCollection, noteInputs } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const ALICE = "alice@team.example";
const QUESTION = "What limits solid-state batteries?";
const [review, interfaces, manufacturing] = BATTERY_NOTES;

/**
 * A shared handbook holding one battery note, and Alice's private notes holding two more: a run
 * reading as no one can only cite the handbook. Collections only (LOCAL_SEARCH=only), no model:
 * the extractive writer cites what the search found.
 */
async function database(): Promise<Record<string, string>> {
  const path = join(mkdtempSync(join(tmpdir(), "rq-local-owners-")), "rq.db");
  const store = openSqliteStore(path);
  const alice = await createAccount(store, ALICE, null, "free");
  await fillCollection(store, "handbook", [manufacturing!]);
  const own = store.corpus.createCollection({
    name: "alice-notes",
    ownerId: alice.id,
    visibility: "private",
  }) as CollectionSummary;
  store.corpus.put(own.id, noteInputs([review!, interfaces!]));
  store.close();
  return { DATABASE_PATH: path, LOCAL_SEARCH: "only", ACADEMIC_PROVIDERS: "none" };
}

type Envelope = { status: string; writer: string; sources: { collection: string; title: string }[] };

/** Nothing of Alice's notes — collection, title or text — is anywhere in what the run printed. */
function expectNothingPrivate(printed: string): void {
  for (const secret of ["alice-notes", review!.title, interfaces!.title, "lithium niobate", "40 cycles"])
    expect(printed).not.toContain(secret);
}

describe("ask and mcp read the private collections of --owner only", () => {
  test("ask cites Alice's private notes only with --owner", async () => {
    const env = await database();
    const none = await cli(["ask", QUESTION, "--json"], env);
    expect(none.code).toBe(0);
    const shared = JSON.parse(none.out) as Envelope;
    expect(shared).toMatchObject({ status: "ok", writer: "extractive" });
    expect(shared.sources.map((s) => s.collection)).toEqual(["handbook"]);
    expectNothingPrivate(none.out + none.err);

    const owned = await cli(["ask", QUESTION, "--json", "--owner", ALICE], env);
    expect(owned.code).toBe(0);
    const sources = (JSON.parse(owned.out) as Envelope).sources;
    expect(sources.map((s) => s.title)).toContain(review!.title);
    expect(new Set(sources.map((s) => s.collection))).toEqual(new Set(["alice-notes", "handbook"]));
  });

  test("an --owner no account has stops ask and mcp before any run, naming it; so does LOCAL_SEARCH=off", async () => {
    const env = await database();
    for (const cmd of [["ask", QUESTION], ["mcp"]]) {
      const r = await cli([...cmd, "--owner", ALICE, "--owner", "carol@team.example"], env);
      expect([r.code, r.out]).toEqual([2, ""]);
      // Only carol is named (Alice has an account); mcp has logged its engine line before.
      expect(r.err).toMatch(
        new RegExp(`^research-query ${cmd[0]}: no account has the email carol@team\\.example$`, "m"),
      );
    }
    const off = await cli(["ask", QUESTION, "--owner", ALICE], { ...env, LOCAL_SEARCH: "off" });
    expect([off.code, off.out]).toEqual([2, ""]);
    expect(off.err).toContain("LOCAL_SEARCH=off reads no collection");
  });

  test("mcp in local mode: research cites Alice's notes only when started with --owner", async () => {
    const env = await database();
    const call = { name: "research", arguments: { question: QUESTION } };
    const plain = await mcpSession([], env);
    try {
      const r = await plain.client.callTool(call);
      expect((r.structuredContent as Envelope).sources.map((s) => s.collection)).toEqual(["handbook"]);
      expectNothingPrivate(JSON.stringify(r));
    } finally {
      await plain.close();
    }
    const owned = await mcpSession(["--owner", ALICE], env);
    try {
      const r = await owned.client.callTool(call);
      expect((r.structuredContent as Envelope).sources.map((s) => s.collection)).toContain("alice-notes");
    } finally {
      await owned.close();
    }
  });
});
