import type { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import type { SQL } from "bun";
import type { AccountRow, Store } from "../../src/store/types.ts";
import { type AnyStore, backends } from "./backends.ts";

const allowances = { free: 10, pro: 10, researcher: 10 };

/** An account with a session, a key, a finished run, a private and a shared collection, an upload in flight, audit rows. */
async function populate(s: Store, email: string) {
  const a: AccountRow = {
    id: crypto.randomUUID(),
    email,
    passwordHash: "h",
    plan: "free",
    createdAt: new Date().toISOString(),
    emailStatus: "proven",
  };
  const note = (action: string) => ({ action, actorId: a.id, actor: email, ip: "192.0.2.1" });
  await s.accounts.insert(a, note("signup"));
  const now = new Date();
  await s.sessions.insert(
    {
      id: crypto.randomUUID(),
      accountId: a.id,
      tokenHash: `t-${a.id}`,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 1e7).toISOString(),
    },
    { passwordHash: "h" },
    note("signin"),
  );
  await s.apiKeys.insertWithin(
    {
      id: crypto.randomUUID(),
      accountId: a.id,
      name: "k",
      prefix: `rq-${a.id.slice(0, 8)}`,
      keyHash: `kh-${a.id}`,
      status: "active",
      createdAt: now.toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    },
    10,
    undefined,
    note("key_created"),
  );
  const run = {
    id: crypto.randomUUID(),
    accountId: a.id,
    keyId: null,
    keyPrefix: null,
    origin: "api" as const,
    endpoint: "/api/query",
    query: "q",
    createdAt: now,
    instanceId: "i",
  };
  expect(await s.runs.accept(run, allowances, { key: `idem-${a.id}`, queryHash: "qh", since: new Date(0) })).toEqual({
    accepted: true,
  });
  await s.runs.finish(
    run.id,
    {
      status: "ok",
      answer: "a",
      sources: [],
      errors: [],
      writer: "extractive",
      tokensIn: 0,
      tokensOut: 0,
      latencyMs: 1,
    },
    [{ atMs: 0, type: "final", data: { seq: 0 } }],
  );
  for (const visibility of ["private", "shared"] as const) {
    const c = (await s.corpus.createCollection({ name: `c-${visibility}`, ownerId: a.id, visibility }))!;
    await s.corpus.put(c.id, [
      {
        docId: "d.txt",
        title: "D",
        url: null,
        path: null,
        format: "text",
        contentHash: "x",
        truncated: false,
        passages: ["text"],
      },
    ]);
    await s.uploads.enqueue(
      c.id,
      a.id,
      [
        {
          collectionId: c.id,
          docId: "f.md",
          format: "markdown",
          bytes: 1,
          instanceId: "i",
          spool: `spool-${visibility}-${email.split("@")[0]}`,
        },
      ],
      () => true,
    );
  }
  await s.audit.failedSignin(
    { action: "signin_failed", actorId: null, actor: null, target: email, ip: "192.0.2.9" },
    { max: 20, windowMs: 3_600_000 },
  );
  return a;
}

for (const backend of backends) {
  describe(`AccountsTable.remove on ${backend.name}`, () => {
    const opened: AnyStore[] = [];
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    /** Every row of every table of the database that holds one of `needles`, as "table: row". */
    async function rowsHolding(s: AnyStore, needles: string[]): Promise<string[]> {
      const found: string[] = [];
      const check = (table: string, rows: unknown[]) => {
        for (const row of rows) {
          const text = JSON.stringify(row, (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v));
          for (const n of needles) if (text.includes(n)) found.push(`${table}: ${text.slice(0, 160)}`);
        }
      };
      if (backend.name === "sqlite") {
        const db = (s as { raw: Database }).raw;
        for (const { name } of db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
          name: string;
        }[])
          check(name, db.query(`SELECT * FROM "${name}"`).all());
      } else {
        const sql = (s as { raw: SQL }).raw;
        const tables =
          await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
        for (const { table_name } of tables as { table_name: string }[])
          check(table_name, [...(await sql.unsafe(`SELECT * FROM "${table_name}"`))]);
      }
      return found;
    }

    test("no table holds the account's email or id afterwards; another account's rows all stay", async () => {
      const s = await backend.open();
      opened.push(s);
      const a = await populate(s, "leaver@example.com");
      const b = await populate(s, "stayer@example.com");
      if (backend.name === "postgres")
        await (s as { raw: SQL })
          .raw`INSERT INTO login_attempts (key, failures, pending, blocked_until, last_at) VALUES ('e:leaver@example.com', 1, 0, 0, 0)`;
      const others = (await rowsHolding(s, [b.email, b.id])).length;
      expect((await rowsHolding(s, [a.email, a.id])).length).toBeGreaterThan(0);
      const note = {
        action: "account_deleted",
        actorId: "deleted:x",
        actor: "deleted:x",
        targetId: "deleted:x",
        target: "deleted:x",
        ip: null,
      };
      const spools = await s.accounts.remove(a.id, { email: a.email, pseudonym: "deleted:x" }, note);
      expect(spools).toEqual(["spool-private-leaver"]);
      expect(await rowsHolding(s, [a.email, a.id])).toEqual([]);
      expect((await rowsHolding(s, [b.email, b.id])).length).toBe(others);
      expect(await s.accounts.remove(a.id, { email: a.email, pseudonym: "deleted:x" }, note)).toBeNull();
      // The shared collection stays, the operator's: renamed where the operator has one of its name.
      const shared = (await s.corpus.collections("all")).filter((c) => c.ownerId === null);
      expect(shared.map((c) => [c.name, c.documents])).toEqual([["c-shared", 1]]);
      const trail = await s.audit.list({ limit: 100 });
      expect(
        trail
          .filter((r) => r.actor === "deleted:x" || r.target === "deleted:x")
          .map((r) => r.action)
          .sort(),
      ).toEqual(["account_deleted", "key_created", "signin", "signin_failed", "signup"]);
    });
  });
}
