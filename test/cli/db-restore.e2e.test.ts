import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../src/store/sqlite/migrations.ts";
import { KNOWN_SCHEMA } from "../../src/store/sqlite/schema-version.ts";
import { spawnServe } from "../helpers/serve-process.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

/** `db restore` of what other releases and crashes leave (README "Backups while it serves"). */
const ENV = { LOCAL_SEARCH: "only", ACADEMIC_PROVIDERS: "none" };
let dir: string;
const backup = () => join(dir, "backup.db");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rq-restore-"));
  const docs = join(dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "tides.md"), "# Tides\n\nThe moon raises the sea twice a day.\n");
  const db = join(dir, "rq.db");
  expect((await cli(["corpus", "add", docs, "--collection", "sea", "--shared"], { DATABASE_PATH: db })).code).toBe(0);
  expect((await cli(["db", "backup", backup()], { DATABASE_PATH: db })).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("db restore", () => {
  test("a file from an older schema is restored and migrated by the next start", async () => {
    const older = join(dir, "older.db");
    // As a release before the newest migration left it: every migration but the last.
    const d = new Database(older);
    d.exec("PRAGMA journal_mode = WAL");
    d.exec("CREATE TABLE __migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
    for (const m of migrations.slice(0, -1)) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) d.exec(stmt);
      d.query("INSERT INTO __migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, new Date().toISOString());
    }
    d.close();
    const home = mkdtempSync(join(tmpdir(), "rq-older-"));
    const r = await cli(["db", "restore", older], { DATABASE_PATH: join(home, "rq.db") });
    expect(r.code).toBe(0);
    const s = await spawnServe(ENV, home);
    s.proc.kill("SIGTERM");
    await s.proc.exited;
    const after = new Database(join(home, "rq.db"), { readonly: true });
    expect(after.query("SELECT max(tag) AS tag FROM __migrations").get()).toEqual({ tag: KNOWN_SCHEMA });
    after.close();
    rmSync(home, { recursive: true, force: true });
  });

  test("a database a killed server left, WAL and all, is set aside with its last commits in one file", async () => {
    const crashed = mkdtempSync(join(tmpdir(), "rq-crashed-"));
    const path = join(crashed, "rq.db");
    const open = join(import.meta.dir, "../../src/store/sqlite/open.ts");
    const script = `const { openSqliteStore } = await import(${JSON.stringify(open)});
      const s = openSqliteStore(${JSON.stringify(path)});
      s.raw.exec("PRAGMA wal_autocheckpoint = 0");
      await s.settings.getOrCreate("last", () => "in the WAL");
      process.kill(process.pid, "SIGKILL");`;
    await Bun.spawn(["bun", "-e", script], { stdout: "ignore", stderr: "ignore" }).exited;
    expect(existsSync(`${path}-wal`)).toBe(true);
    const r = await cli(["db", "restore", backup()], { DATABASE_PATH: path });
    expect(r.code).toBe(0);
    const aside = readdirSync(crashed).filter((f) => f.includes(".replaced-"));
    expect(aside).toHaveLength(1);
    const d = new Database(join(crashed, aside[0]!), { readonly: true });
    expect(d.query("SELECT value FROM settings WHERE key = 'last'").get()).toEqual({ value: "in the WAL" });
    d.close();
    rmSync(crashed, { recursive: true, force: true });
  });
});
