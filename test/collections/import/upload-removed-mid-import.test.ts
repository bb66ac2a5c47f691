import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GATED_IMPORT_WORKER, importGate } from "../../fixtures/import-gate.ts";
import { useLongTimeout } from "../../setup.ts";
import { at, call, type Member, member } from "../collection-calls.ts";
import { leftovers, startUploadServer, upload } from "../uploads/upload-calls.ts";

useLongTimeout();

// A file's document removed while the file is imported takes every record the import stored
// with it, whether the import then ends imported or failed: nothing of it is left searched or
// counted. The real worker behind a gate (test/fixtures/gated-import-worker.ts) holds the job
// before it starts, or after its first batch is stored.
const srv = startUploadServer({}, { importWorker: { workerUrl: GATED_IMPORT_WORKER } });
const gate = importGate();
afterAll(async () => {
  gate.close();
  await srv.stop(100);
});

/** A JSONL file of `n` records (several batches), its last line not JSON: the import ends failed. */
const records = (n: number, badLine = true) =>
  [
    ...Array.from({ length: n }, (_, i) =>
      JSON.stringify({ id: `r${i}`, text: `Record ${i} about tidal estuaries and salt marshes.` }),
    ),
    ...(badLine ? ["{not json"] : []),
  ].join("\n");

/** Resolves once the server has logged the end of `n` imports. */
async function importsEnded(n: number) {
  while (srv.logs.filter((l) => l.includes('"upload_imported"')).length < n) await Bun.sleep(10);
}
const imports = () => srv.logs.filter((l) => l.includes('"upload_imported"')).length;

/** The owner's view once the import ended: its documents, its storage use, the rows stored. */
async function after(m: Member, collection: string) {
  const documents = (await call(m, "GET", `${at(collection)}/documents`)).body.documents;
  const storage = (await call(m, "GET", "/api/console/usage")).body.storage;
  return { documents, used: [storage.documents.used, storage.bytes.used], stored: leftovers(srv).documents };
}

describe("a file removed while it is imported", () => {
  let a: Member;
  beforeAll(async () => {
    a = await member(srv.url, "a");
    expect((await call(a, "POST", "/api/console/collections", { name: "records" })).status).toBe(201);
  });

  for (const badLine of [true, false])
    test(`removed after its first batch is stored, the import ending ${badLine ? "failed (one bad line)" : "imported"}: none of its records stays`, async () => {
      const name = `gated-paused-${badLine ? "bad" : "good"}.jsonl`;
      const n = imports();
      expect((await upload(a, "records", [{ name, data: records(600, badLine) }])).status).toBe(202);
      await gate.started(name);
      gate.open(name);
      await gate.stored(name);
      expect(leftovers(srv).documents).toBeGreaterThan(0);
      expect((await call(a, "DELETE", at("records", name))).status).toBe(200);
      gate.open(name);
      await importsEnded(n + 1);
      expect(await after(a, "records")).toEqual({ documents: [], used: [0, 0], stored: 0 });
      expect(leftovers(srv)).toMatchObject({ rows: 0, spooled: 0 });
    });

  test("removed before it starts, the import ending failed: none of its records is stored", async () => {
    const name = "gated-held.jsonl";
    const n = imports();
    expect((await upload(a, "records", [{ name, data: records(600) }])).status).toBe(202);
    await gate.started(name);
    expect((await call(a, "DELETE", at("records", name))).status).toBe(200);
    gate.open(name);
    await importsEnded(n + 1);
    expect(await after(a, "records")).toEqual({ documents: [], used: [0, 0], stored: 0 });
  });
});
