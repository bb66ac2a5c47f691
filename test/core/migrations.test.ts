import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { journalTags, migrations } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";

describe("embedded migrations", () => {
  test("every db/*.sql file is embedded, in journal order", () => {
    const files = readdirSync(new URL("../../db", import.meta.url)).filter((f) => f.endsWith(".sql")).map((f) => f.replace(/\.sql$/, "")).sort();
    expect(migrations.map((m) => m.tag)).toEqual(files);
    expect(journalTags).toEqual(files);
  });

  test("opening twice applies each migration once; WAL and busy_timeout are on", () => {
    const path = `/tmp/rq-mig-${crypto.randomUUID()}/x.db`;
    const a = openDatabase(path);
    a.$client.close();
    const b = openDatabase(path);
    expect(b.$client.query("SELECT COUNT(*) AS n FROM __migrations").get()).toEqual({ n: migrations.length });
    expect(b.$client.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(b.$client.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 5000 });
    b.$client.close();
  });
});
