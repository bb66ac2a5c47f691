import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GATED_IMPORT_WORKER, importGate } from "../../fixtures/import-gate.ts";
import type { TestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";
import { call, elsewhere, type Member, member } from "../collection-calls.ts";
import { docOf, settled, startUploadServer, upload } from "../uploads/upload-calls.ts";

useLongTimeout();

// One SQLite file, servers one after another: a file whose import a stop cut short is imported
// by the next server that can read it, or fails with the reason when none can.

const dir = mkdtempSync(join(tmpdir(), "rq-upload-restart-"));
const gate = importGate();
const running: TestServer[] = [];
afterAll(async () => {
  gate.close();
  for (const s of running) await s.stop(100);
  rmSync(dir, { recursive: true, force: true });
});

const env = (spool: string) => ({ DATABASE_PATH: join(dir, "rq.db"), UPLOAD_DIR: join(dir, spool) });
function start(spool: string, gated = false): TestServer {
  const s = startUploadServer(env(spool), gated ? { importWorker: { workerUrl: GATED_IMPORT_WORKER } } : {});
  running.push(s);
  return s;
}
async function stop(s: TestServer) {
  running.splice(running.indexOf(s), 1);
  await s.stop(100);
}
/** A file left `indexing` by a server stopped while it imported it (the gate never opened). */
async function cutShort(spool: string, m: Member | null, docId: string): Promise<Member> {
  const s = start(spool, true);
  const who = m ? elsewhere(m, s.url) : await member(s.url, "a");
  if (!m) await call(who, "POST", "/api/console/collections", { name: "notes" });
  expect(
    (await upload(who, "notes", [{ name: docId, data: `# Cut short\n\n${docId} was being imported.` }])).status,
  ).toBe(202);
  await gate.started(docId);
  await stop(s);
  return who;
}

/** The account of the first test; its session is in the file, good on every server of it. */
let a: Member;

describe("a file whose import a stop cut short", () => {
  test("is imported again by the next server on the same spool", async () => {
    a = await cutShort("spool", null, "gated-again.md");
    const next = start("spool");
    const docs = await settled(elsewhere(a, next.url), "notes");
    expect(docOf(docs, "gated-again.md")).toMatchObject({ status: "ready", title: "Cut short" });
    await stop(next);
  });

  test("fails with the reason on a server whose spool does not hold it", async () => {
    await cutShort("spool", a, "gated-lost.md");
    const other = start("another-spool");
    const docs = await settled(elsewhere(a, other.url), "notes");
    expect(docOf(docs, "gated-lost.md")).toMatchObject({
      status: "failed",
      error: "the server that received this file stopped before importing it: upload it again",
    });
  });
});
