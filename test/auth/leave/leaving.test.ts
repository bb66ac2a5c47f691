import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../../src/util/crypto.ts";
import { at, call, type Member, member } from "../../collections/collection-calls.ts";
import { settled, startUploadServer, upload } from "../../collections/uploads/upload-calls.ts";
import { query, type TestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

let srv: TestServer;
beforeAll(() => {
  srv = startUploadServer();
});
afterAll(() => srv.stop(100));

/** A member with two keys, three runs, a private and a shared collection with a document each. */
async function populated(tag: string) {
  const m = await member(srv.url, tag);
  const keys = [await m.c.createKey(`${tag}-laptop`), await m.c.createKey()];
  const runs: string[] = [];
  for (const q of [`${tag} first question?`, `${tag} second question?`, `${tag} third question?`]) {
    const r = await query(srv.url, keys[0]!.key, { query: q });
    expect(r.status).toBe(200);
    runs.push(r.headers.get("x-request-id")!);
  }
  for (const [name, visibility] of [
    [`${tag}-private`, "private"],
    [`${tag}-team`, "shared"],
  ] as const) {
    expect((await call(m, "POST", "/api/console/collections", { name, visibility })).status).toBe(201);
    const text = `# ${tag} ${visibility} notes\n\nThe ${tag} ${visibility} document says tides follow the moon.`;
    expect((await upload(m, name, [{ name: `${tag}-${visibility}.md`, data: text }])).status).toBe(202);
    await settled(m, name);
  }
  return { m, keys, runs };
}

const exportOf = async (m: Member) => {
  const res = await m.c.req("GET", "/api/v1/me/export");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-disposition")).toContain("attachment");
  return { text: await res.text(), res };
};

describe("GET /api/v1/me/export", () => {
  test("holds the account's keys (prefixes), usage, runs with answers and sources, collections with text, and nothing of another's", async () => {
    const a = await populated("ea");
    const b = await populated("eb");
    const { text } = await exportOf(a.m);
    const doc = JSON.parse(text);
    expect(doc.account).toMatchObject({ id: a.m.id, email: a.m.email });
    expect(doc.keys.map((k: { prefix: string }) => k.prefix).sort()).toEqual(a.keys.map((k) => k.prefix).sort());
    expect(doc.usage).toEqual([{ month: new Date().toISOString().slice(0, 7), runs: 3 }]);
    expect(doc.runs.map((r: { request_id: string }) => r.request_id).sort()).toEqual([...a.runs].sort());
    for (const r of doc.runs) {
      expect(r.status).toBe("ok");
      expect(typeof r.answer).toBe("string");
      expect(r.sources.length).toBeGreaterThan(0);
    }
    expect(doc.collections.map((c: { name: string }) => c.name).sort()).toEqual(["ea-private", "ea-team"]);
    const texts = doc.collections.flatMap((c: { documents: { text: string }[] }) => c.documents.map((d) => d.text));
    expect(texts.join("\n")).toContain("The ea private document says tides follow the moon.");
    expect(doc.audit.map((e: { action: string }) => e.action)).toContain("account_exported");
    // Never a key or its hash; nothing of the other account.
    for (const k of a.keys) {
      expect(text).not.toContain(k.key);
      expect(text).not.toContain(sha256Hex(k.key));
    }
    for (const other of [b.m.email, b.m.id, ...b.runs, ...b.keys.map((k) => k.prefix), "eb-private", "eb-team"])
      expect(text).not.toContain(other);
    // The export is recorded once, for its caller.
    const exported = srv.sql
      .query("SELECT count(*) AS n FROM audit_events WHERE action = 'account_exported' AND actor_id = ?")
      .get(a.m.id) as { n: number };
    expect(exported.n).toBe(1);
  });

  test("a session only: a key is refused", async () => {
    const a = await member(srv.url, "k");
    const key = await a.c.createKey();
    const r = await fetch(`${srv.url}/api/v1/me/export`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(r.status).toBe(401);
  });
});

/** Every row of every table of the schema that holds `needle` in any column, as "table: row". */
function rowsHolding(needles: string[]): string[] {
  const tables = srv.sql.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  const found: string[] = [];
  for (const { name } of tables) {
    for (const row of srv.sql.query(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
      const text = JSON.stringify(row, (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v));
      for (const n of needles) if (text.includes(n)) found.push(`${name}: ${text.slice(0, 200)}`);
    }
  }
  return found;
}

describe("DELETE /api/v1/me", () => {
  test("leaves no row or spooled file of the account; another's runs and shared collections untouched", async () => {
    const a = await populated("da");
    const b = await populated("db");
    // An upload still in flight, received by an instance that is not importing it.
    const spooled = `leaving-${crypto.randomUUID()}`;
    writeFileSync(join(srv.deps.imports.spool.root, spooled), "# in flight\n\nnot yet imported");
    const coll = (await srv.deps.store.corpus.collectionRef(a.m.id, "da-private"))!;
    const file = {
      collectionId: coll.id,
      docId: "flight.md",
      format: "markdown",
      bytes: 30,
      instanceId: "elsewhere",
      spool: spooled,
    };
    expect(await srv.deps.store.uploads.enqueue(coll.id, a.m.id, [file], () => true)).toMatchObject({ queued: [{}] });
    expect(rowsHolding([a.m.email, a.m.id]).length).toBeGreaterThan(0);
    const before = rowsHolding([b.m.email, b.m.id]).length;

    const wrong = await call(a.m, "DELETE", "/api/v1/me", { password: "not my password" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].code).toBe("invalid_credentials");
    expect((await call(a.m, "GET", "/api/v1/me")).status).toBe(200);

    const gone = await a.m.c.req("DELETE", "/api/v1/me", { password: "correct horse battery" });
    expect(gone.status).toBe(204);
    expect(rowsHolding([a.m.email, a.m.id])).toEqual([]);
    expect(existsSync(join(srv.deps.imports.spool.root, spooled))).toBe(false);
    expect(readdirSync(srv.deps.imports.spool.root).filter((f) => f === spooled)).toEqual([]);
    // The session went with it; signing in again finds no account.
    expect((await call(a.m, "GET", "/api/v1/me")).status).toBe(401);

    // The other account: every row of it still there, its runs and its shared collection as they were.
    expect(rowsHolding([b.m.email, b.m.id]).length).toBe(before);
    const bExport = JSON.parse((await exportOf(b.m)).text);
    expect(bExport.runs).toHaveLength(3);
    expect((await call(b.m, "GET", `${at("db-team")}/documents`)).body.documents).toHaveLength(1);
    // The departed person's shared collection stays for the team, owned by no one; its private one is gone.
    const list = (await call(b.m, "GET", "/api/console/collections")).body.collections;
    expect(list.find((c: { name: string }) => c.name === "da-team")).toMatchObject({ owner: null, documents: 1 });
    expect(list.find((c: { name: string }) => c.name === "da-private")).toBeUndefined();
    // The trail keeps the deletion, the person as a one-way hash, and their earlier entries under it.
    const deleted = srv.sql.query("SELECT * FROM audit_events WHERE action = 'account_deleted'").all() as {
      actor: string;
      target_id: string;
    }[];
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.actor).toMatch(/^deleted:[0-9a-f]{24}$/);
    const theirs = srv.sql.query("SELECT action FROM audit_events WHERE actor_id = ?").all(deleted[0]!.target_id) as {
      action: string;
    }[];
    expect(theirs.map((r) => r.action)).toContain("signup");
  });

  test("an identity-provider account: only within 10 minutes of its sign-in", async () => {
    const store = srv.deps.store;
    const claim = {
      issuer: "https://idp.example",
      subject: crypto.randomUUID(),
      email: `sso${crypto.randomUUID().slice(0, 6)}@example.com`,
      emailVerified: true,
    };
    const linked = (await store.identities.link(claim, "free")) as { accountId: string };
    const sessionAt = async (agoMs: number) => {
      const token = crypto.randomUUID();
      const createdAt = new Date(Date.now() - agoMs);
      await store.sessions.insert(
        {
          id: crypto.randomUUID(),
          accountId: linked.accountId,
          tokenHash: sha256Hex(token),
          createdAt: createdAt.toISOString(),
          expiresAt: new Date(createdAt.getTime() + 86_400_000).toISOString(),
        },
        { issuer: claim.issuer, subject: claim.subject },
      );
      return (body: unknown) =>
        fetch(`${srv.url}/api/v1/me`, {
          method: "DELETE",
          headers: { cookie: `auth_token=${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
    };
    const old = await (await sessionAt(11 * 60_000))({});
    expect(old.status).toBe(403);
    expect(((await old.json()) as { errors: { code: string; message: string }[] }).errors[0]).toMatchObject({
      code: "reauthentication_required",
    });
    expect(await store.accounts.byId(linked.accountId)).not.toBeNull();
    expect((await (await sessionAt(60_000))({})).status).toBe(204);
    expect(await store.accounts.byId(linked.accountId)).toBeNull();
    expect(rowsHolding([claim.email, linked.accountId])).toEqual([]);
  });
});
