import { afterAll, describe, expect, test } from "bun:test";
import type { AccountRow } from "../../src/store/types.ts";
import { type AnyStore, backends } from "./backends.ts";

for (const backend of backends) {
  describe(`the export's reads on ${backend.name}`, () => {
    const opened: AnyStore[] = [];
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    test("runs a page at a time, oldest first, each once; usage per month; a session's sign-in time", async () => {
      const s = await backend.open();
      opened.push(s);
      const a: AccountRow = {
        id: crypto.randomUUID(),
        email: "a@x.org",
        passwordHash: "h",
        plan: "free",
        createdAt: "2026-11-01T00:00:00.000Z",
        emailStatus: "proven",
      };
      await s.accounts.insert(a);
      const made: string[] = [];
      // Two runs in the same millisecond: the id breaks the tie.
      for (const [i, at] of [
        "2026-10-05T00:00:00.000Z",
        "2026-11-05T00:00:00.000Z",
        "2026-11-05T00:00:00.000Z",
        "2026-11-06T00:00:00.000Z",
        "2026-11-07T00:00:00.000Z",
      ].entries()) {
        const id = `${String(i).padStart(2, "0")}-${crypto.randomUUID()}`;
        made.push(id);
        const run = {
          id,
          accountId: a.id,
          keyId: null,
          keyPrefix: null,
          origin: "api" as const,
          endpoint: "/api/query",
          query: `q${i}`,
          createdAt: new Date(at),
          instanceId: "i",
        };
        expect(await s.runs.accept(run, { free: 10, pro: 10, researcher: 10 })).toEqual({ accepted: true });
      }
      const seen: string[] = [];
      let after: { createdAt: string; id: string } | null = null;
      for (;;) {
        const page = await s.runs.pageByAccount(a.id, after, 2);
        seen.push(...page.map((r) => r.id));
        if (page.length < 2) break;
        after = page[page.length - 1]!;
      }
      expect(seen).toEqual(made);
      expect(await s.runCounters.byAccount(a.id)).toEqual([
        { period: "2026-10", runs: 1 },
        { period: "2026-11", runs: 4 },
      ]);
      const createdAt = new Date(Date.now() - 5_000).toISOString();
      await s.sessions.insert(
        {
          id: "s1",
          accountId: a.id,
          tokenHash: "th",
          createdAt,
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
        { passwordHash: "h" },
      );
      expect(await s.sessions.createdAt("th", new Date().toISOString())).toBe(createdAt);
      expect(await s.sessions.createdAt("none", new Date().toISOString())).toBeNull();
    });
  });
}
