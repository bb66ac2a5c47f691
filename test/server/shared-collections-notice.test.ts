import { describe, expect, test } from "bun:test";
import { createAccount } from "../../src/auth/accounts.ts";
import { logSharedCollections } from "../../src/server/shared-collections-notice.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { createLogger } from "../../src/util/logger.ts";
import { textDoc } from "../corpus/search/search-helpers.ts";

/** A store with an unowned shared collection of two documents, Alice's shared one and her private one. */
async function store() {
  const s = openSqliteStore(":memory:");
  const alice = await createAccount(s, "alice@team.example", null, "free");
  const make = (name: string, ownerId: string | null, visibility: "private" | "shared", n: number) => {
    const c = s.corpus.createCollection({ name, ownerId, visibility })!;
    s.corpus.put(
      (c as { id: number }).id,
      Array.from({ length: n }, (_, i) => textDoc(`${name}-${i}`, `${name} ${i}`, `text ${i}`)),
    );
  };
  make("handbook", null, "shared", 2);
  make("team", alice.id, "shared", 1);
  make("payroll", alice.id, "private", 3);
  return s;
}

async function lines(config: { SIGNUP: "open" | "closed"; SIGNUP_DOMAINS?: string }) {
  const out: Record<string, unknown>[] = [];
  const s = await store();
  await logSharedCollections(
    s,
    config,
    createLogger("info", (line) => out.push(JSON.parse(line))),
  );
  s.close();
  return out;
}

describe("serve's start notice of shared collections", () => {
  test("sign-up closed: one info line naming the shared collections (count, names, documents); private ones never", async () => {
    const out = await lines({ SIGNUP: "closed" });
    expect(
      out.map(({ level, msg, count, collections, documents }) => ({ level, msg, count, collections, documents })),
    ).toEqual([
      { level: "info", msg: "shared_collections", count: 2, collections: ["handbook", "team"], documents: 3 },
    ]);
    expect(out[0]!.message).toBe(
      "every account reads 2 shared collections: handbook, team (research-query corpus list)",
    );
    expect(JSON.stringify(out)).not.toContain("payroll");
  });

  test("sign-up open: one warning, saying who else reads them and how to stop that", async () => {
    const out = await lines({ SIGNUP: "open" });
    expect(out.map((l) => [l.level, l.msg, l.count])).toEqual([["warn", "shared_collections_open_signup", 2]]);
    expect(out[0]!.message).toBe(
      "every account reads 2 shared collections: handbook, team (research-query corpus list); sign-up is open (SIGNUP=open), so anyone who signs up reads them too: set SIGNUP=closed, or research-query corpus unshare NAME --owner EMAIL",
    );
    const domains = await lines({ SIGNUP: "open", SIGNUP_DOMAINS: "team.example, @Partner.org" });
    expect(domains[0]!.message).toContain(
      "so anyone with an address at team.example, partner.org who signs up reads them too",
    );
  });

  test("no shared collection, no line", async () => {
    const out: string[] = [];
    const s = openSqliteStore(":memory:");
    await logSharedCollections(
      s,
      { SIGNUP: "open" },
      createLogger("info", (line) => out.push(line)),
    );
    s.close();
    expect(out).toEqual([]);
  });
});
