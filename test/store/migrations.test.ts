import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync } from "node:fs";
import { SQL } from "bun";
import { denseBigrams } from "../../src/store/dense-bigrams.ts";
import { pgJournalTags, pgMigrations } from "../../src/store/postgres/migrations.ts";
import { openPostgresStore } from "../../src/store/postgres/open.ts";
import { varints } from "../../src/store/sqlite/corpus-postings.ts";
import { journalTags, migrations } from "../../src/store/sqlite/migrations.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import type { Store } from "../../src/store/types.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";

const OLD = "'2026-01-01T00:00:00Z'";

/** A collection made before owners, one document of one passage, "Zürich": 6 characters, 7 bytes of UTF-8. */
async function expectSharedWithNoOwner(db: Store): Promise<void> {
  const [c, ...more] = await db.corpus.collections("all");
  expect(more).toEqual([]);
  expect(c).toMatchObject({ name: "notes", ownerId: null, owner: null, visibility: "shared", documents: 1, bytes: 7 });
  // Every account reads it, and an account reading nothing of its own too (ask without --owner).
  expect(await db.corpus.readable({ accounts: [] })).toEqual([c!.id]);
  expect(await db.corpus.readable({ accounts: ["someone"] })).toEqual([c!.id]);
  // Names are unique per owner now: an account may have its own notes beside it.
  await db.accounts.insert({
    id: "a1",
    email: "a@x.org",
    passwordHash: null,
    plan: "free",
    createdAt: "2026-11-01T00:00:00Z",
    emailStatus: "unproven",
  });
  expect(await db.corpus.createCollection({ name: "notes", ownerId: "a1", visibility: "private" })).toMatchObject({
    name: "notes",
    visibility: "private",
  });
}

describe("embedded migrations", () => {
  test("every db/*.sql file is embedded, in journal order", () => {
    const files = readdirSync(new URL("../../db", import.meta.url))
      .filter((f) => f.endsWith(".sql"))
      .map((f) => f.replace(/\.sql$/, ""))
      .sort();
    expect(migrations.map((m) => m.tag)).toEqual(files);
    expect(journalTags).toEqual(files);
  });

  test("opening twice applies each migration once; WAL and busy_timeout are on", () => {
    const path = `/tmp/rq-mig-${crypto.randomUUID()}/x.db`;
    const a = openSqliteStore(path);
    a.raw.close();
    const b = openSqliteStore(path);
    expect(b.raw.query("SELECT COUNT(*) AS n FROM __migrations").get()).toEqual({ n: migrations.length });
    expect(b.raw.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(b.raw.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 5000 });
    b.raw.close();
  });

  test("0002 carries the runs already counted into the per-month counters", () => {
    const dir = `/tmp/rq-mig-${crypto.randomUUID()}`;
    mkdirSync(dir, { recursive: true });
    const old = new Database(`${dir}/x.db`);
    old.exec("CREATE TABLE __migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
    for (const m of migrations.slice(0, 2)) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) old.exec(stmt);
      old.run("INSERT INTO __migrations VALUES (?, ?)", [m.tag, "2026-01-01T00:00:00Z"]);
    }
    old.run(
      "INSERT INTO accounts (id, email, password_hash, plan, created_at) VALUES ('a1', 'a@x.org', NULL, 'free', '2026-10-01T00:00:00Z')",
    );
    const run = (id: string, period: string) =>
      old.run(
        `INSERT INTO runs (id, account_id, origin, endpoint, query, period, status, created_at)
      VALUES (?, 'a1', 'api', '/api/query', 'q', ?, 'ok', ?)`,
        [id, period, `${period}-02T00:00:00Z`],
      );
    run("r1", "2026-10");
    run("r2", "2026-10");
    run("r3", "2026-10");
    run("r4", "2026-11");
    old.close();
    const db = openSqliteStore(`${dir}/x.db`);
    expect(db.runCounters.used("a1", "2026-10")).toBe(3);
    expect(db.runCounters.used("a1", "2026-11")).toBe(1);
    expect(db.runCounters.used("a1", "2026-12")).toBe(0);
    db.raw.close();
  });

  test("0004: runs an older version left running have no instance, so they count as dead", () => {
    const dir = `/tmp/rq-mig-${crypto.randomUUID()}`;
    mkdirSync(dir, { recursive: true });
    const old = new Database(`${dir}/x.db`);
    old.exec("CREATE TABLE __migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
    for (const m of migrations.slice(0, 4)) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) old.exec(stmt);
      old.run("INSERT INTO __migrations VALUES (?, ?)", [m.tag, "2026-01-01T00:00:00Z"]);
    }
    old.run(`INSERT INTO runs (id, origin, endpoint, query, period, status, created_at)
      VALUES ('r1', 'cli', 'cli', 'q', '2026-11', 'running', '2026-11-02T00:00:00Z')`);
    old.close();
    const db = openSqliteStore(`${dir}/x.db`);
    expect(db.runs.markInterrupted({ code: "interrupted", message: "m" })).toBe(1);
    expect(db.raw.query("SELECT status, instance_id FROM runs").get()).toEqual({ status: "error", instance_id: null });
    db.raw.close();
  });

  test("0007: collections made before owners are shared with no owner; a document's bytes are its kept text's", async () => {
    const dir = `/tmp/rq-mig-${crypto.randomUUID()}`;
    mkdirSync(dir, { recursive: true });
    const old = new Database(`${dir}/x.db`);
    old.exec("CREATE TABLE __migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
    expect(migrations[7]!.tag).toBe("0007_collection_owners");
    for (const m of migrations.slice(0, 7)) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) old.exec(stmt);
      old.run("INSERT INTO __migrations VALUES (?, ?)", [m.tag, "2026-01-01T00:00:00Z"]);
    }
    old.exec(`INSERT INTO corpus_collections (name, created_at) VALUES ('notes', ${OLD})`);
    old.exec(`INSERT INTO corpus_documents (collection_id, doc_id, title, format, content_hash, chars, added_at)
      VALUES (1, 'z.md', 'Zürich', 'markdown', 'h', 6, ${OLD})`);
    old.exec("INSERT INTO corpus_passages (document_id, seq, text) VALUES (1, 0, 'Zürich')");
    old.close();
    const db = openSqliteStore(`${dir}/x.db`);
    await expectSharedWithNoOwner(db);
    db.raw.close();
  });

  test("0012: documents indexed before it have their terms under their collection, per field, and are found", async () => {
    const dir = `/tmp/rq-mig-${crypto.randomUUID()}`;
    mkdirSync(dir, { recursive: true });
    const old = new Database(`${dir}/x.db`);
    old.exec("CREATE TABLE __migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
    expect(migrations[12]!.tag).toBe("0012_corpus_terms");
    for (const m of migrations.slice(0, 12)) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) old.exec(stmt);
      old.run("INSERT INTO __migrations VALUES (?, ?)", [m.tag, "2026-01-01T00:00:00Z"]);
    }
    old.exec(`INSERT INTO corpus_collections (name, created_at) VALUES ('notes', ${OLD})`);
    old.exec(`INSERT INTO corpus_documents (collection_id, doc_id, title, format, content_hash, chars, added_at)
      VALUES (1, 'tides.md', 'Tides', 'markdown', 'h', 40, ${OLD})`);
    old.exec("INSERT INTO corpus_passages (document_id, seq, text) VALUES (1, 0, 'Tides follow the moon; tides rise')");
    old.exec(
      "INSERT INTO corpus_docs_fts (rowid, title, body) VALUES (1, 'Tides', 'Tides follow the moon; tides rise')",
    );
    // Dense script as the index got it (in pairs), beside a long body: lengths past one varint byte.
    const cjk = denseBigrams("東京の潮汐 Tides");
    const long = denseBigrams(`${"moon tide ".repeat(150)}潮の満ち引き`);
    old.exec(`INSERT INTO corpus_documents (collection_id, doc_id, title, format, content_hash, chars, added_at)
      VALUES (1, 'kyoto.md', 'x', 'markdown', 'h', 40, ${OLD})`);
    old.run("INSERT INTO corpus_docs_fts (rowid, title, body) VALUES (2, ?, ?)", [cjk, long]);
    // FTS5's own lengths (its docsize: a varint per column), which the migration must carry over.
    const docsize = (
      old.query("SELECT id, sz FROM corpus_docs_fts_docsize ORDER BY id").all() as { id: number; sz: Uint8Array }[]
    ).map((r) => [r.id, ...varints(r.sz)]);
    expect(docsize[1]![2]).toBeGreaterThan(127);
    old.close();
    const db = openSqliteStore(`${dir}/x.db`);
    const p = await db.corpusIndex.postings(["tide", "moon", "absent"], [1]);
    expect(Object.fromEntries(p)).toEqual({
      tide: { docs: [1, 2], title: [1, 1], body: [2, 150] },
      moon: { docs: [1, 2], title: [0, 0], body: [1, 150] },
      absent: { docs: [], title: [], body: [] },
    });
    expect(Object.fromEntries(await db.corpusIndex.documentFrequencies(["tide"], [1]))).toEqual({ tide: 2 });
    const len = await db.corpusIndex.lengths([1]);
    const lengths = [...len.ids].map((id, i) => [id, len.title[i], len.body[i]]);
    expect(lengths.sort((a, b) => a[0]! - b[0]!)).toEqual(docsize);
    // Every term under its document's collection; a document's terms go with it (the trigger).
    expect(
      db.raw.query("SELECT count(*) FROM corpus_terms_vocab WHERE term NOT LIKE '1\\_%' ESCAPE '\\'").values(),
    ).toEqual([[0]]);
    expect(await db.corpus.removeDocuments(1, ["tides.md"])).toBe(1);
    expect((await db.corpusIndex.postings(["tide"], [1])).get("tide")!.docs).toEqual([2]);
    // FTS5's index of documents across collections is gone: nothing writes or reads it any more.
    expect(db.raw.query("SELECT name FROM sqlite_master WHERE name LIKE 'corpus_docs%'").all()).toEqual([]);
    db.raw.close();
  });
});

describe("embedded PostgreSQL migrations", () => {
  test("every db/pg/*.sql file is embedded, in journal order", () => {
    const files = readdirSync(new URL("../../db/pg", import.meta.url))
      .filter((f) => f.endsWith(".sql"))
      .map((f) => f.replace(/\.sql$/, ""))
      .sort();
    expect(pgMigrations.map((m) => m.tag)).toEqual(files);
    expect(pgJournalTags).toEqual(files);
  });

  test.skipIf(!postgresTests)("opening twice applies each migration once", async () => {
    const url = await freshDatabase();
    await (await openPostgresStore(url)).close();
    const b = await openPostgresStore(url);
    expect((await b.raw`SELECT count(*)::int AS n FROM __migrations`)[0].n).toBe(pgMigrations.length);
    await b.close();
  });
  test.skipIf(!postgresTests)("0002: collections made before owners are shared with no owner", async () => {
    const url = await freshDatabase();
    const old = new SQL(url);
    await old`CREATE TABLE __migrations (tag text PRIMARY KEY, applied_at text NOT NULL)`;
    expect(pgMigrations[2]!.tag).toBe("0002_collection_owners");
    for (const m of pgMigrations.slice(0, 2)) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) await old.unsafe(stmt);
      await old`INSERT INTO __migrations VALUES (${m.tag}, '2026-01-01T00:00:00Z')`;
    }
    await old.unsafe(`INSERT INTO corpus_collections (name, created_at) VALUES ('notes', ${OLD})`);
    await old.unsafe(`INSERT INTO corpus_documents (collection_id, doc_id, title, format, content_hash, chars, added_at, title_len, body_len)
      VALUES (1, 'z.md', 'Zürich', 'markdown', 'h', 6, ${OLD}, 1, 1)`);
    await old.unsafe(
      "INSERT INTO corpus_passages (document_id, seq, text, search) VALUES (1, 0, 'Zürich', to_tsvector('simple', 'Zürich'))",
    );
    await old.close();
    const db = await openPostgresStore(url);
    await expectSharedWithNoOwner(db);
    await db.close();
  });
  test.skipIf(!postgresTests)("0008: terms stored before it carry their document's collection", async () => {
    const url = await freshDatabase();
    const old = new SQL(url);
    await old`CREATE TABLE __migrations (tag text PRIMARY KEY, applied_at text NOT NULL)`;
    expect(pgMigrations[8]!.tag).toBe("0008_corpus_terms_by_collection");
    for (const m of pgMigrations.slice(0, 8)) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) await old.unsafe(stmt);
      await old`INSERT INTO __migrations VALUES (${m.tag}, '2026-01-01T00:00:00Z')`;
    }
    await old.unsafe(`INSERT INTO corpus_collections (name, created_at) VALUES ('notes', ${OLD}), ('more', ${OLD})`);
    await old.unsafe(`INSERT INTO corpus_documents (collection_id, doc_id, title, format, content_hash, chars, added_at, title_len, body_len)
      VALUES (2, 'z.md', 'Tides', 'markdown', 'h', 6, ${OLD}, 1, 2)`);
    await old.unsafe("INSERT INTO corpus_terms (document_id, term, title_tf, body_tf) VALUES (1, 'tide', 1, 2)");
    await old.close();
    const db = await openPostgresStore(url);
    expect(Object.fromEntries(await db.corpusIndex.postings(["tide"], [2]))).toEqual({
      tide: { docs: [1], title: [1], body: [2] },
    });
    expect(Object.fromEntries(await db.corpusIndex.postings(["tide"], [1]))).toEqual({
      tide: { docs: [], title: [], body: [] },
    });
    await db.close();
  });
});
