import { BatchWriter, type DocumentSink } from "./batch-writer.ts";
import { formatOf, KNOWN_ENDINGS } from "./formats.ts";
import type { ImportOptions, ImportSummary, ReadPdf } from "./import-types.ts";
import { ProblemLog } from "./problem-log.ts";
import { ProgressMeter } from "./progress-meter.ts";
import { MAX_DOC_CHARS } from "./read-capped.ts";
import { readFile } from "./read-file.ts";
import { readJsonl } from "./read-jsonl.ts";
import { type FileEntry, walkPaths } from "./walk-paths.ts";

export type { ImportProblem, ImportProgress, ImportSummary } from "./import-types.ts";

/**
 * Imports files and folders into a collection (README "Importing documents"): PDF, HTML,
 * Markdown and text files are one document each, JSONL files one per line. Documents are
 * written in batches, each one transaction; an unchanged document is left alone, a changed
 * one replaced. Whatever cannot be read is reported through `onProblem` and the import goes
 * on. Once `signal` aborts, the documents read so far are written and nothing more is read.
 */
export async function importPaths(store: DocumentSink, paths: string[], o: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const maxChars = o.maxChars ?? MAX_DOC_CHARS;
  const summary: ImportSummary = {
    collection: o.collection.name,
    added: 0,
    replaced: 0,
    unchanged: 0,
    skipped: 0,
    failedPaths: [],
    interrupted: false,
    seconds: 0,
  };
  const { files, missing, skipped } = walkPaths(paths, { followLinks: o.followLinks });
  const log = new ProblemLog(o.onProblem);
  const skip = (path: string, message: string, line?: number) => {
    summary.skipped++;
    log.report({ path, line, message, skipped: true });
  };
  for (const m of missing) log.report({ path: paths[m.root]!, message: m.message, skipped: true });
  for (const s of skipped) skip(s.file, s.message);
  paths.forEach((p, i) => {
    const reached = [...missing, ...files, ...skipped].some((x) => x.root === i);
    if (!reached) log.report({ path: p, message: "empty folder: nothing to import", skipped: true });
  });

  const perRoot = paths.map(() => 0);
  const meter = new ProgressMeter(files.length, o.onProgress, o.now);
  const writer = new BatchWriter(
    store,
    o.collection.id,
    (outcome, root) => {
      summary[outcome]++;
      perRoot[root]!++;
      meter.documents++;
    },
    log.report,
  );
  for (const f of files) {
    if (o.signal?.aborted) break;
    meter.current = f.file;
    meter.within = 0;
    await importFile(f, { writer, skip, report: log.report, meter, maxChars, signal: o.signal, readPdf: o.readPdf });
    log.endFile(f.file);
    meter.files++;
    meter.tick();
  }
  await writer.flush();
  summary.interrupted = o.signal?.aborted ?? false;
  summary.failedPaths = paths.filter((_, i) => perRoot[i] === 0);
  summary.seconds = (performance.now() - started) / 1000;
  meter.tick(true);
  return summary;
}

interface FileContext {
  writer: BatchWriter;
  skip: (path: string, message: string, line?: number) => void;
  report: ProblemLog["report"];
  meter: ProgressMeter;
  maxChars: number;
  signal?: AbortSignal;
  readPdf?: ReadPdf;
}

async function importFile(f: FileEntry, c: FileContext): Promise<void> {
  const format = formatOf(f.file);
  if (!format) return c.skip(f.file, `not a format we import (${KNOWN_ENDINGS})`);
  const warn = (message: string, line?: number) => c.report({ path: f.file, line, message, skipped: false });
  if (format === "jsonl" || format === "jsonl.gz") {
    let line = 0;
    try {
      const onShare = (share: number) => {
        c.meter.within = share;
        c.meter.tick();
      };
      for await (const item of readJsonl(f, format === "jsonl.gz", c.maxChars, onShare)) {
        if (c.signal?.aborted) break;
        if ("bad" in item) {
          c.skip(f.file, item.bad, item.line);
          continue;
        }
        line = item.doc.line ?? line;
        for (const w of item.warnings) warn(w, item.doc.line);
        await c.writer.add(item.doc, f.root);
      }
    } catch (e) {
      // A damaged .gz or a read error: the lines before stay imported.
      c.skip(
        f.file,
        `could not be read after line ${line} (${(e as Error).message}): the rest of the file is left out`,
      );
    }
    return;
  }
  let read: Awaited<ReturnType<typeof readFile>>;
  try {
    read = await readFile(f, format, c.maxChars, c.signal, c.readPdf);
  } catch (e) {
    return c.skip(f.file, `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  // A PDF stopped by the signal returns the pages read so far: never store it half-read.
  if (c.signal?.aborted) return;
  if ("skip" in read) return c.skip(f.file, read.skip);
  for (const w of read.warnings) warn(w);
  await c.writer.add(read.doc, f.root);
}
