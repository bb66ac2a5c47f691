import { closeSync, openSync, readSync, rmSync } from "node:fs";
import { basename } from "node:path";
import { importPaths } from "../../corpus/import/import-paths.ts";
import type { CorpusDocumentInput, CorpusPutOutcome } from "../../store/types.ts";
import { formatMismatch } from "../uploads/format-sniff.ts";
import { gunzipCapped } from "../uploads/gunzip-capped.ts";
import type { ImportJob, JobOutcome, JobProblem } from "./import-messages.ts";
import { slices } from "./sliced-put.ts";

/** Documents handed to the server in one message at most (on SQLite it writes them in smaller slices still). */
const PUT = { docs: 50, chars: 250_000 };

const stem = (name: string) => name.replace(/\.[^.]+$/, "");

function head(path: string, n = 4096): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const buf = new Uint8Array(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Imports one spooled file with the importer `corpus add` uses (src/corpus/import: the same
 * formats, caps and messages), handing its documents to `put` (the server stores them and
 * answers). Runs in the import worker, never on the server's thread. First the file's bytes
 * are checked against the format its name claims; a .jsonl.gz is first expanded to a spooled
 * .jsonl, at most `gzipLimit` bytes (a gzip bomb stops there). A document uploaded as a file
 * keeps the name it was uploaded under as doc_id (and title, when it has none of its own).
 */
export async function importFile(
  job: ImportJob,
  put: (docs: CorpusDocumentInput[]) => Promise<CorpusPutOutcome[]>,
): Promise<JobOutcome> {
  const mismatch = formatMismatch(head(job.path), job.format);
  if (mismatch) return { type: "failed", reason: mismatch };
  const problems: JobProblem[] = [];
  let path = job.path;
  let expanded: string | null = null;
  if (job.format === "jsonl.gz") {
    expanded = `${job.path}.jsonl`;
    const gz = await gunzipCapped(job.path, expanded, job.gzipLimit);
    if (gz.tooLarge) {
      rmSync(expanded, { force: true });
      return { type: "failed", reason: gz.tooLarge };
    }
    if (gz.damaged) problems.push({ message: gz.damaged, skipped: true });
    path = expanded;
  }
  const spooledStem = stem(basename(path));
  const asUploaded = (d: CorpusDocumentInput): CorpusDocumentInput =>
    d.format === "jsonl"
      ? { ...d, path: job.docId }
      : {
          ...d,
          docId: job.docId,
          path: job.docId,
          title: d.title === spooledStem ? stem(job.docId) : d.title,
        };
  const sink = {
    corpus: {
      async put(_collection: number, docs: CorpusDocumentInput[]) {
        const out: CorpusPutOutcome[] = [];
        for (const run of slices(docs.map(asUploaded), PUT)) out.push(...(await put(run)));
        return out;
      },
    },
  };
  try {
    const summary = await importPaths(sink, [path], {
      collection: { id: 0, name: "" },
      maxChars: job.maxChars,
      onProblem: (p) => problems.push({ line: p.line, message: p.message, skipped: p.skipped }),
    });
    return { type: "done", documents: summary.added + summary.replaced + summary.unchanged, problems };
  } catch (e) {
    // The server refused a batch (the disk is full, the allowance is used up, the collection was removed).
    return { type: "failed", reason: (e as Error).message };
  } finally {
    if (expanded) rmSync(expanded, { force: true });
  }
}
