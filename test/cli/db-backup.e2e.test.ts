import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KNOWN_SCHEMA, schemaNumber } from "../../src/store/sqlite/schema-version.ts";
import { at, call, type Member } from "../collections/collection-calls.ts";
import { upload } from "../collections/uploads/upload-calls.ts";
import { type ServeProcess, spawnServe } from "../helpers/serve-process.ts";
import { Client, query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

/**
 * README "Backups while it serves", as an operator runs it: `db backup` while a server answers 50
 * streamed runs and imports uploads, `db restore` onto a stopped server, and the refusals.
 */
const ENV = { DEFAULT_PLAN: "pro", PLAN_RUNS_PRO: "1000", LOCAL_SEARCH: "only", ACADEMIC_PROVIDERS: "none" };
const QUESTION = { query: "What is CRISPR base editing?" };
let dir: string;
let db: string;
let serve: ServeProcess;
let m: Member;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rq-backup-"));
  db = join(dir, "rq.db");
  const docs = join(dir, "docs");
  mkdirSync(docs);
  for (let i = 0; i < 5; i++)
    writeFileSync(
      join(docs, `editing-${i}.md`),
      `# Base editing ${i}\n\nCRISPR base editing changes a single DNA letter without cutting both strands. A base editor joins a Cas9 nickase to a deaminase enzyme (note ${i}).\n`,
    );
  // In a process of its own: a connection of this one would hold the file open (see the restore's check).
  expect((await cli(["corpus", "add", docs, "--collection", "notes", "--shared"], { DATABASE_PATH: db })).code).toBe(0);
  serve = await spawnServe(ENV, dir);
  const c = new Client(serve.base);
  const { email, account } = await c.signup();
  m = { c, email, id: account.id };
  key = (await c.createKey()).key;
  expect((await call(m, "POST", "/api/console/collections", { name: "team" })).status).toBe(201);
});
afterAll(() => {
  serve?.proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** One streamed run to its end: its request id. */
async function streamed(): Promise<string> {
  const res = await query(serve.base, key, QUESTION, {}, "/api/query/stream");
  const s = await readSse(res);
  const final = s.events.find((e) => e.event === "final")!;
  expect(final.data.status).toBe("ok");
  return final.data.request_id;
}

const ids = (path: string) => {
  const d = new Database(path, { readonly: true });
  try {
    return new Set((d.query("SELECT id FROM runs").all() as { id: string }[]).map((r) => r.id));
  } finally {
    d.close();
  }
};

describe("db backup while the server answers, db restore onto it stopped", () => {
  const backup = () => join(dir, "backup.db");

  test("a backup taken under 50 streams and uploads holds every run answered before it, and is whole", async () => {
    const before = await Promise.all(Array.from({ length: 5 }, streamed));
    const answered: string[] = [...before];
    let some!: () => void;
    const underWay = new Promise<void>((r) => {
      some = r;
    });
    const streams = Array.from({ length: 50 }, () =>
      streamed().then((id) => {
        if (answered.push(id) === 15) some();
      }),
    );
    const uploads = Array.from({ length: 5 }, (_, i) =>
      upload(m, "team", [{ name: `up-${i}.md`, data: `# Upload ${i}\n\nBase editing note number ${i}.\n` }]),
    );
    // Runs answered by the time the backup begins: every one of them must be in it.
    await underWay;
    const begun = [...answered];
    const made = await cli(["db", "backup", backup()], { DATABASE_PATH: db });
    expect(made.err).toContain(`schema ${KNOWN_SCHEMA})`);
    expect(made.code).toBe(0);
    await Promise.all([...streams, ...uploads]);
    expect(answered).toHaveLength(55);
    expect(readdirSync(dir).filter((f) => f.includes(".partial-"))).toEqual([]);

    const copy = new Database(backup(), { readonly: true });
    expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(copy.query("SELECT max(tag) AS tag FROM __migrations").get()).toEqual({ tag: KNOWN_SCHEMA });
    copy.close();
    const held = ids(backup());
    for (const id of begun) expect(held.has(id)).toBe(true);

    // An existing FILE is kept unless told.
    const again = await cli(["db", "backup", backup()], { DATABASE_PATH: db });
    expect(again.code).toBe(1);
    expect(again.err).toContain("--overwrite");
  });

  test("restore is refused while the server has the database open; nothing is moved", async () => {
    const r = await cli(["db", "restore", backup()], { DATABASE_PATH: db });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`has ${db} open: stop it`);
    expect(readdirSync(dir).filter((f) => f.includes(".replaced-") || f.includes(".restoring-"))).toEqual([]);
    expect((await fetch(`${serve.base}/healthz`)).status).toBe(200);
  });

  test("a file from a newer schema is refused by name", async () => {
    const newer = join(dir, "newer.db");
    copyFileSync(backup(), newer);
    const d = new Database(newer);
    d.query("INSERT INTO __migrations (tag, applied_at) VALUES ('0015_future', '2027-01-01')").run();
    d.close();
    const elsewhere = join(mkdtempSync(join(tmpdir(), "rq-restore-")), "rq.db");
    const r = await cli(["db", "restore", newer], { DATABASE_PATH: elsewhere });
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `${newer} is at schema 0015 (0015_future), this binary knows up to ${schemaNumber(KNOWN_SCHEMA)}: upgrade`,
    );
    expect(existsSync(elsewhere)).toBe(false);
  });

  test("stopped, the backup restores in place, the replaced file is kept, and a server serves its runs", async () => {
    serve.proc.kill("SIGTERM");
    expect(await serve.proc.exited).toBe(0);
    const held = ids(backup());
    const r = await cli(["db", "restore", backup()], { DATABASE_PATH: db });
    expect(r.err).toContain("start the server");
    expect(r.code).toBe(0);
    const aside = readdirSync(dir).filter((f) => f.startsWith("rq.db.replaced-"));
    expect(aside).toHaveLength(1);
    expect(ids(join(dir, aside[0]!)).size).toBe(55);
    expect(ids(db)).toEqual(held);
    serve = await spawnServe(ENV, dir);
    const again = Object.assign(new Client(serve.base), { cookie: m.c.cookie });
    for (const id of [...held].slice(0, 5)) {
      const run = await call(again, "GET", `/api/console/runs/${id}`);
      expect(run.status).toBe(200);
    }
    expect((await call(again, "GET", `${at("team")}/documents`)).status).toBe(200);
    expect((await query(serve.base, key, QUESTION)).status).toBe(200);
  });

  test("on PostgreSQL backup and restore are refused, pointing at pg_dump", async () => {
    for (const cmd of ["backup", "restore"]) {
      const r = await cli(["db", cmd, join(dir, "pg.db")], { DATABASE_URL: "postgres://rq@127.0.0.1:1/rq" });
      expect(r.code).toBe(1);
      expect(r.err).toContain("pg_dump -Fc");
    }
    const help = await cli(["db", "backup", "--help"]);
    expect(help.out).toContain("pg_dump");
  });
});
