import { afterAll, describe, expect, test } from "bun:test";
import { COLLECTION_REF_SELECT } from "../../src/store/corpus-rows.ts";
import type { PostgresStore } from "../../src/store/postgres/open.ts";
import type { SqliteStore } from "../../src/store/sqlite/open.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

/**
 * A collection found by name without its counts, on every backend: the same identity the
 * summary carries, from the collection's row alone (a route's lookup must not read the
 * collection's documents or passages, which made each call cost the collection's size).
 */

/** The tables a statement's plan reads, in the backend's own EXPLAIN. */
async function planText(backend: string, s: AnyStore, sql: string): Promise<string> {
  if (backend === "sqlite")
    return ((s as SqliteStore).raw.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
      .map((r) => r.detail)
      .join("\n");
  const rows = (await (s as PostgresStore).raw.unsafe(`EXPLAIN ${sql}`, ["", "x"])) as Record<string, string>[];
  return rows.map((r) => Object.values(r)[0]).join("\n");
}

for (const backend of backends) {
  describe(`collection refs on ${backend.name}`, () => {
    const opened: AnyStore[] = [];
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    test("a ref is the summary's identity; sharedRefs lists the shared ones of a name; neither reads documents", async () => {
      const s = await backend.open();
      opened.push(s);
      const id = crypto.randomUUID();
      const email = `${id.slice(0, 8)}@example.com`;
      await s.accounts.insert({
        id,
        email,
        passwordHash: null,
        plan: "free",
        createdAt: new Date().toISOString(),
        emailStatus: "unproven",
      });
      await s.corpus.createCollection({ name: "notes", ownerId: id, visibility: "shared" });
      await s.corpus.createCollection({ name: "notes", ownerId: null, visibility: "private" });
      await s.corpus.createCollection({ name: "other", ownerId: null, visibility: "shared" });
      const summary = (await s.corpus.findCollection(id, "notes"))!;
      await s.corpus.put(summary.id, [
        {
          docId: "a.md",
          title: "a",
          url: null,
          path: null,
          format: "text",
          contentHash: "a",
          truncated: false,
          passages: ["x"],
        },
      ]);
      const { documents: _d, passages: _p, chars: _c, bytes: _b, updatedAt: _u, ...identity } = summary;
      expect(await s.corpus.collectionRef(id, "notes")).toEqual(identity);
      expect(identity.owner).toBe(email);
      expect((await s.corpus.collectionRef(null, "notes"))?.visibility).toBe("private");
      expect(await s.corpus.collectionRef(id, "other")).toBeNull();
      expect((await s.corpus.sharedRefs("notes")).map((c) => [c.ownerId, c.name])).toEqual([[id, "notes"]]);
      const plan = await planText(
        backend.name,
        s,
        `${COLLECTION_REF_SELECT} WHERE coalesce(c.owner_id, '') = ${backend.name === "sqlite" ? "?" : "$1"} AND c.name = ${backend.name === "sqlite" ? "?" : "$2"}`,
      );
      expect(plan).toContain("corpus_collections");
      expect(plan).not.toMatch(/corpus_documents|corpus_passages/);
    });
  });
}
