import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { RunningServer } from "../../../src/server/server.ts";
import { openPostgresStore } from "../../../src/store/postgres/open.ts";
import { createLogger } from "../../../src/util/logger.ts";
import { freshDatabase, postgresTests } from "../../helpers/postgres.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { startTestServer } from "../../helpers/server.ts";
import { LIVE } from "../../runs/instances/leased-server.ts";
import { useLongTimeout } from "../../setup.ts";
import { at, call, elsewhere, member } from "../collection-calls.ts";
import { docOf, settled, upload } from "./upload-calls.ts";
import { spawnUploader } from "./upload-child.ts";

useLongTimeout();

// Uploads on PostgreSQL with instances sharing one database and one spool (UPLOAD_DIR on a
// shared volume): any instance shows a file's status; a file whose instance dies mid-import
// is taken over by a live one.

const spool = mkdtempSync(join(tmpdir(), "rq-upload-pg-"));
const servers: RunningServer[] = [];
const children: Subprocess[] = [];
afterAll(async () => {
  for (const p of children) p.kill(9);
  for (const s of servers) await s.stop(100);
  rmSync(spool, { recursive: true, force: true });
});

async function start(url: string): Promise<RunningServer> {
  const s = startTestServer({
    env: { DATABASE_URL: url, UPLOAD_DIR: spool, LOG_LEVEL: "warn", SIGNUP_PER_HOUR: "50" },
    engine: scriptedEngine(),
    store: await openPostgresStore(url, { max: 4 }),
    logger: createLogger("silent"),
    lease: LIVE,
    imports: { sweepMs: 100 },
  });
  servers.push(s);
  return s;
}

describe.skipIf(!postgresTests)("uploads on PostgreSQL, instances sharing the database and the spool", () => {
  test("uploaded through one instance, followed on another; one killed mid-import is taken over", async () => {
    const url = await freshDatabase();
    const one = await start(url);
    const two = await start(url);
    const a = await member(one.url, "a");
    expect((await call(a, "POST", "/api/console/collections", { name: "notes" })).status).toBe(201);
    const jsonl = ['{"id":"r1","text":"first record"}', '{"id":"r2","text":"second record"}'].join("\n");
    const r = await upload(a, "notes", [
      { name: "a.md", data: "# A\n\nalpha" },
      { name: "records.jsonl", data: jsonl },
    ]);
    expect(r.status).toBe(202);
    const seen = await settled(elsewhere(a, two.url), "notes");
    expect(seen.map((d) => [d.doc_id, d.status])).toEqual([
      ["a.md", "ready"],
      ["r1", "ready"],
      ["r2", "ready"],
    ]);

    const child = await spawnUploader(url, spool);
    children.push(child.proc);
    expect(
      (
        await upload(elsewhere(a, child.url), "notes", [
          { name: "stuck.md", data: "# Stuck\n\nuntil its instance dies" },
        ])
      ).status,
    ).toBe(202);
    for (;;) {
      const list = (await call(elsewhere(a, two.url), "GET", `${at("notes")}/documents`)).body.documents;
      if (docOf(list, "stuck.md")?.status === "indexing") break;
      await Bun.sleep(20);
    }
    child.proc.kill(9);
    await child.proc.exited;
    // Its lease lapses within a second; a live instance finds the file in the shared spool and imports it.
    expect(docOf(await settled(elsewhere(a, two.url), "notes"), "stuck.md")).toMatchObject({
      status: "ready",
      title: "Stuck",
    });
  });
});
