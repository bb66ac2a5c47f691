import { afterAll, describe, expect, test } from "bun:test";
import type { KeyRow } from "../../src/store/types.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

const keyOf = (accountId: string, i: number): KeyRow => ({
  id: crypto.randomUUID(),
  accountId,
  name: null,
  prefix: `rq-${i}`,
  keyHash: crypto.randomUUID(),
  status: "revoked",
  createdAt: new Date().toISOString(),
  lastUsedAt: null,
  revokedAt: null,
});

/** The key cap on every backend: concurrent insertions never pass it; the list in pages. */
for (const backend of backends) {
  describe(`the key cap on ${backend.name}`, () => {
    const opened: AnyStore[] = [];
    afterAll(async () => {
      for (const s of opened) await s.close();
    });
    test("30 insertions at once under a cap of 4: exactly 4 land", async () => {
      const s = await backend.open();
      opened.push(s);
      const accountId = crypto.randomUUID();
      await s.accounts.insert({
        id: accountId,
        email: `${accountId.slice(0, 8)}@example.com`,
        passwordHash: "h",
        plan: "free",
        createdAt: "2026-11-01T00:00:00.000Z",
        emailStatus: "unproven",
      });
      const row = (i: number): KeyRow => ({
        id: crypto.randomUUID(),
        accountId,
        name: null,
        prefix: `rq-${i}`,
        keyHash: crypto.randomUUID(),
        status: "active",
        createdAt: new Date().toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      });
      const landed = await Promise.all(Array.from({ length: 30 }, (_, i) => s.apiKeys.insertWithin(row(i), 4)));
      expect(landed.filter((r) => r === "inserted").length).toBe(4);
      expect((await s.apiKeys.listByAccount(accountId)).length).toBe(4);
    });

    test("pages of keys: newest first from a key on (ties by creation order), none from another's key", async () => {
      const s = await backend.open();
      opened.push(s);
      const ids: string[] = [];
      for (const owner of ["a", "b"]) {
        const accountId = `${owner}-${crypto.randomUUID()}`;
        await s.accounts.insert({
          id: accountId,
          email: `${accountId.slice(0, 10)}@example.com`,
          passwordHash: "h",
          plan: "free",
          createdAt: "2026-11-01T00:00:00.000Z",
          emailStatus: "unproven",
        });
        ids.push(accountId);
      }
      const [a, b] = ids as [string, string];
      // Seven keys of a, three created in the same millisecond.
      const times = ["01", "02", "03", "03", "03", "04", "05"].map((m) => `2026-11-02T00:00:00.0${m}Z`);
      const made: string[] = [];
      for (const [i, createdAt] of times.entries()) {
        const id = `key-${i}`;
        await s.apiKeys.insert({ ...keyOf(a, i), id, createdAt });
        made.push(id);
      }
      await s.apiKeys.insert({ ...keyOf(b, 9), id: "key-of-b", createdAt: times[0]! });
      const newest = [...made].reverse();
      const page = async (from: string | null, n: number) =>
        (await s.apiKeys.pageByAccount(a, from, n)).map((k) => k.id);
      expect(await page(null, 3)).toEqual(newest.slice(0, 3));
      expect(await page(newest[3]!, 3)).toEqual(newest.slice(3, 6));
      expect(await page(newest[6]!, 3)).toEqual(newest.slice(6));
      expect(await page("key-of-b", 3)).toEqual([]);
      expect(await s.apiKeys.pageByAccount(b, null, 3)).toHaveLength(1);
    });
  });
}
