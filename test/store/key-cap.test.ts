import { afterAll, describe, expect, test } from "bun:test";
import type { KeyRow } from "../../src/store/types.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "./backends.ts";

useLongTimeout();

/** The key cap on every backend: concurrent insertions never pass it. */
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
      expect(landed.filter(Boolean).length).toBe(4);
      expect((await s.apiKeys.listByAccount(accountId)).length).toBe(4);
    });
  });
}
