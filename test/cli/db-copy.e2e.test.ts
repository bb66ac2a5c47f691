import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { RANKING, searcherOf } from "../../src/corpus/search/search-corpus.ts";
import { openPostgresStore } from "../../src/store/postgres/open.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import type { Store } from "../../src/store/types.ts";
import { docsOf, putInto } from "../corpus/collections-helpers.ts";
import { everyPlan } from "../helpers/allowances.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const doc = (docId: string, title: string, passages: string[]) => ({
  docId,
  title,
  url: null,
  path: `${docId}.txt`,
  format: "text",
  contentHash: passages.join("|"),
  truncated: false,
  passages,
});

/** A SQLite database with something in every table, as a server that ran a while leaves it. */
async function filled(path: string): Promise<{ accountId: string; runId: string }> {
  const s = openSqliteStore(path);
  const accountId = crypto.randomUUID();
  await s.accounts.insert({
    id: accountId,
    email: "a@x.org",
    passwordHash: "h",
    plan: "pro",
    createdAt: "2026-11-01T00:00:00Z",
    emailStatus: "unproven",
  });
  await s.sessions.insert(
    {
      id: "s",
      accountId,
      tokenHash: "t",
      createdAt: "2026-11-01T00:00:00Z",
      expiresAt: "2099-01-01T00:00:00Z",
    },
    { passwordHash: "h" },
  );
  for (const id of ["k1", "k2"])
    await s.apiKeys.insert({
      id,
      accountId,
      name: id,
      prefix: `rq-${id}`,
      keyHash: `h-${id}`,
      status: "active",
      createdAt: "2026-11-02T00:00:00Z",
      lastUsedAt: null,
      revokedAt: null,
    });
  await s.settings.getOrCreate("session_secret", () => "the-secret");
  const run = (id: string) => ({
    id,
    accountId,
    keyId: "k1",
    keyPrefix: "rq-k1",
    origin: "api" as const,
    endpoint: "/api/query",
    query: `question ${id}`,
    createdAt: new Date("2026-11-05T10:00:00Z"),
    instanceId: "old",
  });
  const claim = { key: "idem", queryHash: "qh", since: new Date("2026-11-04T10:00:00Z") };
  await s.runs.accept(run("r1"), everyPlan(40), claim);
  await s.runs.accept(run("r2"), everyPlan(40));
  await s.runs.finish(
    "r1",
    {
      status: "ok",
      answer: "A [S1]",
      sources: [],
      errors: [],
      writer: "extractive",
      verification: { claims: 1, cited: 1, supported: 1, unsupported: 0, coverage: 1 },
      tokensIn: 1,
      tokensOut: 2,
      latencyMs: 3,
    },
    [
      { atMs: 0, type: "progress", data: { seq: 1 } },
      { atMs: 5, type: "final", data: { seq: 2, status: "ok" } },
    ],
  );
  // Linked after the runs: linking revokes the keys of an unproven address, and a revoked key starts no run.
  await s.identities.link({ issuer: "https://idp", subject: "sub", email: "a@x.org", emailVerified: true }, "free");
  await putInto(s, "notes", [
    doc("tides", "Tides", ["the moon pulls the sea", "twice a day"]),
    doc("cats", "Cats", ["cats sleep most of the day"]),
    doc("zh", "潮汐", ["月球引力造成潮汐现象"]),
  ]);
  // A file uploaded and not yet imported: its row is copied (its spooled file is not).
  const mine = (await s.corpus.createCollection({ name: "mine", ownerId: accountId, visibility: "private" }))!;
  const upload = {
    collectionId: mine.id,
    docId: "q3.pdf",
    format: "pdf",
    bytes: 1234,
    spool: "f.pdf",
    instanceId: "old",
  };
  await s.uploads.enqueue(mine.id, accountId, [upload], () => true);
  s.close();
  return { accountId, runId: "r1" };
}

/** What a user sees of the database, through the Store interface: equal on both sides after a copy. */
async function view(s: Store, accountId: string) {
  return {
    account: await s.accounts.byEmail("a@x.org"),
    keys: await s.apiKeys.listByAccount(accountId),
    session: await s.sessions.accountIdByHash("t", "2026-11-10T00:00:00Z"),
    secret: await s.settings.getOrCreate("session_secret", () => "other"),
    link: await s.identities.link(
      { issuer: "https://idp", subject: "sub", email: "a@x.org", emailVerified: true },
      "free",
    ),
    run: await s.runs.withEvents(accountId, "r1"),
    used: await s.runCounters.used(accountId, "2026-11"),
    recent: await s.runs.recent(accountId, 10),
    retry: await s.runs.accept(
      {
        id: "r3",
        accountId,
        keyId: null,
        keyPrefix: null,
        origin: "api",
        endpoint: "/api/query",
        query: "q",
        createdAt: new Date("2026-11-05T11:00:00Z"),
        instanceId: "x",
      },
      everyPlan(40),
      { key: "idem", queryHash: "qh", since: new Date("2026-11-04T11:00:00Z") },
    ),
    collections: (await s.corpus.collections("all")).map(({ name, documents, passages, chars }) => ({
      name,
      documents,
      passages,
      chars,
    })),
    documents: (await docsOf(s, "notes")).map(({ docId, title, chars }) => ({ docId, title, chars })),
    moon: (await searcherOf(s).rank({ words: ["moon"], ranking: RANKING }, null, 5)).map((h) => h.docId),
    zh: (await searcherOf(s).rank({ words: ["潮汐"], ranking: RANKING }, null, 5)).map((h) => h.docId),
    uploads: (await s.uploads.inFlight((await s.corpus.findCollection(accountId, "mine"))!.id)).map(
      ({ id: _, createdAt: _c, ...row }) => row,
    ),
    storage: await s.uploads.storageUse(accountId),
  };
}

describe.skipIf(!postgresTests)("db copy --to postgres://", () => {
  test("copies every table into an empty database, where everything reads as it did; a second copy is refused", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "rq-copy-")), "rq.db");
    const { accountId } = await filled(path);
    const url = await freshDatabase();
    const copied = await cli(["db", "copy", "--to", url], { DATABASE_PATH: path });
    expect(copied.err).toContain("every table's rows counted on both sides");
    expect(copied.code).toBe(0);
    expect(copied.out).toMatch(/run_events\s+2/);
    expect(copied.out).toMatch(/corpus_passages\s+4/);

    const sqlite = openSqliteStore(path);
    const before = await view(sqlite, accountId);
    sqlite.close();
    const pg = await openPostgresStore(url, { max: 2 });
    try {
      expect(await view(pg, accountId)).toEqual(before);
      expect(before.run?.events).toHaveLength(2);
      expect(before.zh).toEqual(["zh"]);
      // The run the SQLite server left running belongs to no live lease here: the first instance marks it.
      expect(await pg.runs.markInterrupted({ code: "interrupted", message: "m" })).toBe(1);
      // Ids continue after the copied ones: new documents and timelines write as usual.
      expect(await putInto(pg, "notes", [doc("new", "New", ["fresh text"])])).toEqual(["added"]);
      expect(before.uploads.map((u) => [u.docId, u.status, u.ownerId])).toEqual([["q3.pdf", "queued", accountId]]);
      // The copied file's instance is not live here: the first instance with its spool takes it over.
      expect((await pg.uploads.orphans()).map((u) => u.docId)).toEqual(["q3.pdf"]);
      const cid = (await pg.corpus.findCollection(accountId, "mine"))!.id;
      const next = { collectionId: cid, docId: "q4.md", format: "markdown", bytes: 1, spool: "g.md", instanceId: "x" };
      expect(await pg.uploads.enqueue(cid, accountId, [next], () => true)).toMatchObject({
        queued: [{ docId: "q4.md" }],
      });
      await pg.runs.finish(
        "r2",
        {
          status: "error",
          answer: null,
          sources: [],
          errors: [],
          writer: null,
          tokensIn: 0,
          tokensOut: 0,
          latencyMs: 1,
        },
        [{ atMs: 0, type: "final", data: {} }],
      );
      expect((await pg.runs.withEvents(accountId, "r2"))?.events).toEqual([{ atMs: 0, type: "final", data: {} }]);
    } finally {
      await pg.close();
    }

    const again = await cli(["db", "copy", "--to", url], { DATABASE_PATH: path });
    expect(again.code).toBe(1);
    expect(again.err).toContain("is not empty (accounts: 1");
  });

  test("text PostgreSQL cannot hold, stored by SQLite, is copied with U+FFFD and counted: one row never blocks the copy", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "rq-copy-")), "rq.db");
    const { accountId } = await filled(path);
    // As a SQLite server left them before the service refused such text: a user's question, a
    // key's name, a model's answer, a timeline entry and a document's passage holding NUL.
    const s = openSqliteStore(path);
    s.raw.query("UPDATE runs SET query = ?, answer = ? WHERE id = 'r1'").run("tides\0 and moon", "A\0 [S1]");
    s.raw.query("UPDATE api_keys SET name = ? WHERE id = 'k2'").run("k\u00002");
    s.raw.query("UPDATE run_events SET type = ? WHERE id = (SELECT min(id) FROM run_events)").run("progress\0");
    s.raw.query("UPDATE corpus_passages SET text = ? WHERE text = 'twice a day'").run("twice\0 a day");
    s.close();
    const url = await freshDatabase();
    const copied = await cli(["db", "copy", "--to", url], { DATABASE_PATH: path });
    expect(copied.err).toContain(
      "rows holding NUL, which PostgreSQL cannot store, copied with U+FFFD in its place: api_keys: 1, runs: 1, run_events: 1, corpus_passages: 1\n",
    );
    expect(copied.code).toBe(0);
    expect(copied.out).toMatch(/runs\s+2/);
    const pg = await openPostgresStore(url, { max: 2 });
    try {
      const run = await pg.runs.withEvents(accountId, "r1");
      expect([run?.run.query, run?.run.answer, run?.events[0]?.type]).toEqual([
        "tides\ufffd and moon",
        "A\ufffd [S1]",
        "progress\ufffd",
      ]);
      expect((await pg.apiKeys.listByAccount(accountId)).map((k) => k.name).sort()).toEqual(["k1", "k\ufffd2"]);
      expect(
        Number((await pg.raw`SELECT count(*) AS n FROM corpus_passages WHERE text = ${"twice\ufffd a day"}`)[0].n),
      ).toBe(1);
    } finally {
      await pg.close();
    }
  });

  test("a target holding another application's tables is refused, naming them, and nothing is created there", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "rq-copy-")), "rq.db");
    await filled(path);
    const url = await freshDatabase();
    const theirs = new SQL(url, { max: 1 });
    const tablesThere = async () =>
      (
        (await theirs`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema()
          ORDER BY 1`) as { t: string }[]
      ).map((r) => r.t);
    try {
      // A name the service also uses is still another application's table when the service did not make it.
      for (const t of ["invoices", "customers", "ledger", "orders", "payments", "refunds", "accounts"])
        await theirs.unsafe(`CREATE TABLE ${t} (id int)`);
      await theirs.unsafe("CREATE VIEW open_orders AS SELECT * FROM orders");
      const before = await tablesThere();
      const copy = await cli(["db", "copy", "--to", url], { DATABASE_PATH: path });
      expect(copy.code).toBe(1);
      expect(copy.err).toContain(
        "holds 8 tables that research-query did not make in schema public (accounts, customers, invoices, ledger, open_orders and 3 more); nothing was created",
      );
      expect(await tablesThere()).toEqual(before);
      expect(before).not.toContain("__migrations");
    } finally {
      await theirs.close();
    }
  });

  test("without --to, or with a target that cannot be reached, nothing is copied and the password is not shown", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "rq-copy-")), "rq.db");
    await filled(path);
    expect((await cli(["db", "copy"], { DATABASE_PATH: path })).code).toBe(2);
    const down = await cli(["db", "copy", "--to", "postgres://rq:hunter2secret@127.0.0.1:1/rq"], {
      DATABASE_PATH: path,
    });
    expect(down.code).toBe(1);
    expect(down.err).toContain("rq:***@127.0.0.1:1");
    expect(down.err).not.toContain("hunter2secret");
  });
});
