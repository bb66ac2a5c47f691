import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { cli } from "../cli/run-cli.ts";
import { everyPlan } from "../helpers/allowances.ts";
import { spawnServe } from "../helpers/serve-process.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), "rq-retention-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database a server ran on for a while: one run 40 days old, one from an hour ago. */
async function filled(path: string) {
  const s = openSqliteStore(path);
  await s.accounts.insert({
    id: "a",
    email: "a@x.org",
    passwordHash: "h",
    plan: "pro",
    createdAt: new Date(Date.now() - 50 * DAY).toISOString(),
    emailStatus: "unproven",
  });
  for (const [id, age] of [
    ["old", 40 * DAY],
    ["young", 3600_000],
  ] as const) {
    const createdAt = new Date(Date.now() - age);
    const r = { id, accountId: "a", keyId: null, keyPrefix: null, origin: "api" as const, endpoint: "/api/query" };
    await s.runs.accept({ ...r, query: "q", createdAt, instanceId: "gone" }, everyPlan(10));
    await s.runs.finish(
      id,
      {
        status: "ok",
        answer: "A",
        sources: [],
        errors: [],
        writer: "extractive",
        verification: null,
        tokensIn: 0,
        tokensOut: 0,
        latencyMs: 1,
      },
      [{ atMs: 0, type: "final", data: { seq: 1, status: "ok" } }],
    );
    s.raw.run("UPDATE runs SET finished_at = created_at WHERE id = ?", [id]);
  }
  s.close();
}

describe("RUN_RETENTION_DAYS on a served database", () => {
  test("the server sweeps on its own soon after its start, logging what it deleted", async () => {
    const db = join(dir, "rq.db");
    await filled(db);
    const serve = await spawnServe({ RUN_RETENTION_DAYS: "30" }, dir);
    try {
      const text = await serve.out.until('"msg":"retention_sweep"');
      const line = JSON.parse(text.split("\n").find((l) => l.includes('"msg":"retention_sweep"'))!);
      expect(line).toMatchObject({ level: "info", data: "runs", deleted: 1, days: 30 });
    } finally {
      serve.proc.kill("SIGTERM");
      await serve.proc.exited;
    }
    const s = openSqliteStore(db);
    expect(s.raw.query("SELECT id FROM runs").all()).toEqual([{ id: "young" }]);
    s.close();
  });

  test("a bad value stops the start naming the variable; serve --help lists it", async () => {
    const bad = await cli(["serve"], { RUN_RETENTION_DAYS: "-1", DATABASE_PATH: join(dir, "bad.db") });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("RUN_RETENTION_DAYS");
    const help = await cli(["serve", "--help"]);
    expect(help.out).toContain("RUN_RETENTION_DAYS");
  });
});
