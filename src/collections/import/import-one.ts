import type { Config } from "../../config/schema.ts";
import { gzipLimit } from "../../corpus/import/jsonl-lines.ts";
import { searcherOf } from "../../corpus/search/search-corpus.ts";
import { type StorageAllowance, storageAllowanceFor, withinAllowance } from "../../corpus/storage-allowance.ts";
import type { Metrics } from "../../metrics/registry.ts";
import { passageBytes } from "../../store/corpus-rows.ts";
import type { CorpusDocumentInput, StorageUse, Store, UploadRow } from "../../store/types.ts";
import type { Logger } from "../../util/logger.ts";
import { isDiskFull } from "../uploads/enqueue-upload.ts";
import { formatNamed } from "../uploads/file-name.ts";
import type { Spool } from "../uploads/spool.ts";
import type { JobOutcome, JobProblem } from "./import-messages.ts";
import { slicedPut } from "./sliced-put.ts";
import type { WorkerHost } from "./worker-host.ts";

export interface ImportContext {
  store: Store;
  config: Config;
  logger: Logger;
  spool: Spool;
  host: WorkerHost;
  /** Counts each file's outcome and the documents it stored (/metrics). */
  metrics?: Metrics;
}

/** A reason is kept to this many characters (a JSONL file's problems are summarised, not listed). */
const MAX_REASON = 600;
/** Problems of a JSONL file named in its reason; the rest are counted. */
const NAMED_PROBLEMS = 3;

const clip = (s: string) => (s.length > MAX_REASON ? `${s.slice(0, MAX_REASON - 1)}…` : s);
const count = (n: number, what: string) => `${n.toLocaleString("en")} ${what}${n === 1 ? "" : "s"}`;
const problemText = (p: JobProblem) => (p.line ? `line ${p.line}: ${p.message}` : p.message);

/** The refusal of a batch whose file was removed while it was imported (its row is gone). */
const REMOVED = "the file was removed while it was imported";

/** Batches stored between two readings of the owner's storage use. */
const REREAD_BATCHES = 20;

/** Bytes a .jsonl.gz may expand to: as `corpus add`'s limit, never over 8 × UPLOAD_MAX_FILE_BYTES. */
const uploadGzipLimit = (bytes: number, cfg: Config) => Math.min(gzipLimit(bytes), cfg.UPLOAD_MAX_FILE_BYTES * 8);

/**
 * How a finished job leaves its row: null when it is imported (the row goes), else the reason it
 * failed. A file of one document fails when it gave none; a JSONL file fails when any record was
 * left out, the reason counting what was stored (README "Collections for a team").
 */
function verdict(row: UploadRow, outcome: JobOutcome, stored: number): string | null {
  if (outcome.type === "failed")
    return stored && row.format.startsWith("jsonl")
      ? `${count(stored, "document")} stored, then: ${outcome.reason}`
      : outcome.reason;
  const left = outcome.problems.filter((p) => p.skipped);
  if (!row.format.startsWith("jsonl"))
    return outcome.documents ? null : (left[0]?.message ?? "nothing in it could be read");
  if (!left.length) return outcome.documents ? null : "no document in the file (no line with an id and a text)";
  const named = left.slice(0, NAMED_PROBLEMS).map(problemText).join("; ");
  const more = left.length > NAMED_PROBLEMS ? `; ${left.length - NAMED_PROBLEMS} more` : "";
  return `${count(outcome.documents, "document")} stored; ${count(left.length, "record")} left out: ${named}${more}`;
}

/**
 * Stores a batch of the job's documents, within the owner's allowance; throws the refusal's
 * reason. The owner's use is read from the store at the first batch and whenever the running
 * estimate (what this job stored added to it, a replaced document counted as new) says a batch
 * would not fit, and every REREAD_BATCHES batches: a 100,000-record file is not 2,000 reads of
 * the whole account, and a refusal is always decided on a fresh reading.
 */
function storer(c: ImportContext, row: UploadRow, allowance: StorageAllowance | null, written: Set<string>) {
  let use: StorageUse | null = null;
  let batches = 0;
  return async (docs: CorpusDocumentInput[]) => {
    // Read afresh every REREAD_BATCHES too: what another import of the owner's stores meanwhile counts.
    if (batches++ % REREAD_BATCHES === 0) use = null;
    const bytes = docs.reduce((n, d) => n + passageBytes(d.passages), 0);
    // Its document removed meanwhile: not another record stored for every reader to find.
    if (!(await c.store.uploads.present(row.id))) throw new Error(REMOVED);
    if (allowance && row.ownerId) {
      // This file's own reservation (its upload size, one document) gives way to what it stores.
      const fits = (u: StorageUse) =>
        withinAllowance({ documents: u.documents - 1 + docs.length, bytes: u.bytes - row.bytes + bytes }, allowance);
      if (!use || !fits(use)) use = await c.store.uploads.storageUse(row.ownerId);
      if (!fits(use)) throw new Error("the plan's storage allowance is used up: the rest was not stored");
    }
    try {
      // Counted slice by slice: a refusal mid-batch still knows what it had stored.
      const outcomes = await slicedPut(c.store, row.collectionId, docs, (part) => {
        for (const d of part) written.add(d.docId);
      });
      if (use)
        use = {
          documents: use.documents + outcomes.filter((o) => o === "added").length,
          bytes: use.bytes + bytes,
        };
      return outcomes;
    } catch (e) {
      if (isDiskFull(e))
        throw new Error("the server's database is full (disk full): not stored; upload it again later");
      if (/collection was removed/.test((e as Error).message)) throw new Error("the collection was removed");
      throw e;
    }
  };
}

/**
 * Imports one claimed file on the worker and settles its row: removed when imported, `failed`
 * with the reason otherwise, left `indexing` when the server stops meanwhile (taken up again
 * later). A row removed while its file was imported (the document was deleted) takes the
 * documents it stored with it, however the import ended: imported, failed, crashed or stopped.
 */
export async function importOne(row: UploadRow, c: ImportContext): Promise<void> {
  const t0 = performance.now();
  const written = new Set<string>();
  let reason: string | null = "the uploaded file is gone from the server's spool: upload it again";
  let keep = false;
  // Whether the row still stood when it was settled; false drops what this import stored.
  let stands = true;
  try {
    const format = formatNamed(row.format);
    if (row.spool && format && c.spool.exists(row.spool)) {
      const owner = row.ownerId ? await c.store.accounts.byId(row.ownerId) : null;
      const allowance = owner ? storageAllowanceFor(c.config, owner.plan) : null;
      const job = {
        path: c.spool.path(row.spool),
        docId: row.docId,
        format,
        gzipLimit: uploadGzipLimit(row.bytes, c.config),
      };
      // The file's documents are not `ready` until the job ends: searches meanwhile may use an
      // index view a moment old rather than re-read it after every slice (bench 9).
      const release = searcherOf(c.store).holdDuringImport();
      const outcome = await c.host.run(job, storer(c, row, allowance, written)).finally(release);
      // Stopped by a shutdown: the row stays `indexing` with its file, for the next start.
      keep = outcome.type === "stopped";
      if (outcome.type === "stopped") {
        stands = !written.size || (await stillThere(c, row));
        return;
      }
      reason = verdict(row, outcome, written.size);
    }
    stands = reason === null ? await c.store.uploads.finish(row.id) : await settleFailed(c, row, clip(reason));
    const status = !stands ? "removed" : reason === null ? "ready" : "failed";
    c.metrics?.imports.inc({ outcome: status === "ready" ? "imported" : status });
    c.metrics?.importedDocuments.inc({}, stands ? written.size : 0);
    c.logger.info("upload_imported", {
      status,
      documents: written.size,
      bytes: row.bytes,
      ms: Math.round(performance.now() - t0),
    });
  } catch (e) {
    c.logger.error("upload_import_failed", { error: String(e) });
    c.metrics?.imports.inc({ outcome: "failed" });
    stands = await settleFailed(c, row, "the import failed on the server (see its log)");
  } finally {
    if (!stands && written.size) await dropWritten(c, row, written);
    if (row.spool && !keep) c.spool.remove(row.spool);
  }
}

/** Whether the row stands; true when the database cannot tell (nothing is removed on a guess). */
async function stillThere(c: ImportContext, row: UploadRow): Promise<boolean> {
  try {
    return await c.store.uploads.present(row.id);
  } catch {
    return true;
  }
}

/** The documents an import stored, removed with its row; a failure is logged (the server goes on). */
async function dropWritten(c: ImportContext, row: UploadRow, written: Set<string>): Promise<void> {
  try {
    await c.store.corpus.removeDocuments(row.collectionId, [...written]);
  } catch (e) {
    c.logger.error("upload_removal_failed", { error: String(e), documents: written.size });
  }
}

/**
 * Marks the row failed; false when it was gone (its document removed meanwhile). On a full
 * disk the reason is shortened once (a longer one may need a new page).
 */
async function settleFailed(c: ImportContext, row: UploadRow, reason: string): Promise<boolean> {
  try {
    return await c.store.uploads.fail(row.id, reason);
  } catch (e) {
    c.logger.error("upload_fail_unrecorded", { error: String(e) });
    return await Promise.resolve(c.store.uploads.fail(row.id, "failed")).catch(() => true);
  }
}
