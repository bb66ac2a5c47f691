import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call } from "../collections/collection-calls.ts";
import { freshDatabase, postgresTests } from "../helpers/postgres.ts";
import { spawnServe } from "../helpers/serve-process.ts";
import { Client, query } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

/**
 * README "Backups while it serves" on PostgreSQL: `db copy --to FILE` while an instance answers,
 * the file put in place of a SQLite database by `db restore`, and a server started on it.
 */
const ENV = { DEFAULT_PLAN: "pro", PLAN_RUNS_PRO: "1000", LOCAL_SEARCH: "only", ACADEMIC_PROVIDERS: "none" };
const dir = mkdtempSync(join(tmpdir(), "rq-pg-copy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!postgresTests)("PostgreSQL copied to a SQLite file while an instance serves", () => {
  test("db copy --to FILE holds its accounts, runs and collections; restored, a SQLite server serves them", async () => {
    const url = await freshDatabase();
    const docs = join(dir, "pg-docs");
    mkdirSync(docs);
    writeFileSync(
      join(docs, "tides.md"),
      "# Tides\n\nThe moon's pull raises the sea twice a day: these are the tides.\n",
    );
    const added = await cli(["corpus", "add", docs, "--collection", "sea", "--shared"], { DATABASE_URL: url });
    expect(added.code).toBe(0);
    const pg = await spawnServe({ ...ENV, DATABASE_URL: url }, mkdtempSync(join(tmpdir(), "rq-pg-serve-")));
    const question = { query: "Why are there tides twice a day?" };
    try {
      const c = new Client(pg.base);
      await c.signup();
      const pgKey = (await c.createKey()).key;
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await query(pg.base, pgKey, question);
        ids.push(((await res.json()) as { request_id: string; status: string }).request_id);
      }
      const file = join(dir, "from-pg.db");
      const copied = await cli(["db", "copy", "--to", file], { DATABASE_URL: url });
      expect(copied.err).toContain("every table's rows counted");
      expect(copied.code).toBe(0);
      expect((await cli(["db", "copy", "--to", file], { DATABASE_URL: url })).code).toBe(1); // never over a file

      const home = mkdtempSync(join(tmpdir(), "rq-from-pg-"));
      const restored = await cli(["db", "restore", file], { DATABASE_PATH: join(home, "rq.db") });
      expect(restored.code).toBe(0);
      const lite = await spawnServe(ENV, home);
      try {
        const again = Object.assign(new Client(lite.base), { cookie: c.cookie });
        for (const id of ids) expect((await call(again, "GET", `/api/console/runs/${id}`)).status).toBe(200);
        const res = await query(lite.base, pgKey, question);
        const env = (await res.json()) as { status: string; sources: { title: string }[] };
        expect(env.status).toBe("ok");
        expect(env.sources.map((x) => x.title)).toContain("Tides");
      } finally {
        lite.proc.kill("SIGKILL");
        rmSync(home, { recursive: true, force: true });
      }
    } finally {
      pg.proc.kill("SIGKILL");
      rmSync(pg.dir, { recursive: true, force: true });
    }
  });
});
