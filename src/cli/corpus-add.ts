import { statSync } from "node:fs";
import { collectionNameProblem, DEFAULT_COLLECTION } from "../corpus/import/collection-name.ts";
import { type ImportProblem, type ImportProgress, importPaths } from "../corpus/import/import-paths.ts";
import { ownerOption } from "./collection-args.ts";
import { type CommandInput, EXIT, UsageError } from "./command.ts";
import { importTarget } from "./import-target.ts";
import { pdfWorker } from "./pdf-worker.ts";
import { clearStatus, rewriteStatus, say, warn } from "./terminal.ts";
import { withStore } from "./with-store.ts";

const num = (n: number) => Math.round(n).toLocaleString("en");

function eta(s: number | null): string {
  if (s === null) return "";
  if (s < 60) return ` · ${Math.ceil(s)} s left`;
  return ` · ${Math.floor(s / 60)} min ${Math.round(s % 60)} s left`;
}

/**
 * Progress on stderr: one rewritten line on a terminal; otherwise (a log) a plain line a second
 * once the import has run for a second, so a quick import logs only its summary. The clock and
 * the outputs are parameters so a test can play a quick and a long import without waiting.
 */
export function progressPrinter(
  now: () => number = () => performance.now(),
  status: (line: string) => boolean = rewriteStatus,
  log: (line: string) => void = warn,
): (p: ImportProgress) => void {
  let last = now();
  return (p) => {
    const files = p.filesTotal > 1 ? ` · file ${Math.min(p.files + 1, p.filesTotal)}/${p.filesTotal}` : "";
    const line = `[import] ${num(p.documents)} documents · ${num(p.rate)}/s${eta(p.secondsLeft)}${files} · ${p.current}`;
    if (status(line)) return;
    if (now() - last >= 1000) {
      last = now();
      log(`${line}\n`);
    }
  };
}

/** Why a PATH given cannot be imported at all, or undefined when it is there. */
function absence(path: string): string | undefined {
  try {
    statSync(path);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "no such file or folder" : `cannot be read (${code})`;
  }
}

function printProblem(p: ImportProblem): void {
  clearStatus();
  const where = p.line ? `${p.path}:${p.line}` : p.path;
  warn(`${p.skipped ? "skipped" : "note"}: ${where}: ${p.message}\n`);
}

/**
 * `corpus add PATH... [--collection NAME] [--owner EMAIL] [--shared] [--follow-links]`: imports files and folders. Exit 0 when anything was
 * imported (or all was already there, unchanged), 1 when every path failed, 130 on Ctrl-C
 * (after the batch being written: no document is left half-written).
 */
export async function corpusAdd(input: CommandInput): Promise<number> {
  const { cfg, options, args } = input;
  const collection = typeof options.collection === "string" ? options.collection : DEFAULT_COLLECTION;
  const bad = collectionNameProblem(collection);
  if (bad) throw new UsageError(bad);
  // No PATH there: nothing opened, made or announced (a new collection was announced, then dropped).
  const absent = args.map((p) => [p, absence(p)] as const).filter(([, why]) => why !== undefined);
  if (absent.length === args.length) {
    for (const [p, why] of absent) warn(`skipped: ${p}: ${why}\n`);
    warn(`nothing imported from: ${args.join(", ")}; nothing was changed\n`);
    return EXIT.failure;
  }
  const interrupt = new AbortController();
  const onSigint = () => {
    clearStatus();
    process.stderr.write("interrupted: finishing the current batch…\n");
    interrupt.abort("interrupted");
  };
  process.once("SIGINT", onSigint);
  const pdf = pdfWorker(cfg.PARSE_MEMORY_MB);
  try {
    return await withStore(cfg, async (store) => {
      const { collection: target, made } = await importTarget(
        store,
        collection,
        ownerOption(input),
        options.shared === true,
      );
      const s = await importPaths(store, [...args], {
        collection: { id: target.id, name: target.name },
        signal: interrupt.signal,
        followLinks: options["follow-links"] === true,
        onProgress: progressPrinter(),
        onProblem: printProblem,
        readPdf: pdf.readPdf,
      });
      clearStatus();
      const docs = s.added + s.replaced + s.unchanged;
      // A collection made for a mistyped path is not left behind, empty.
      if (made && !(await store.corpus.hasDocuments([target.id]))) {
        await store.corpus.removeCollection(target.id);
        process.stderr.write(`${collection} not kept: nothing was imported into it\n`);
      }
      const rate = docs && s.seconds > 0 ? ` (${num(docs / s.seconds)} documents/s)` : "";
      say(
        `${collection}: ${num(s.added)} added, ${num(s.replaced)} replaced, ${num(s.unchanged)} unchanged, ${num(s.skipped)} skipped in ${s.seconds.toFixed(1)} s${rate}\n`,
      );
      if (s.interrupted) {
        process.stderr.write("interrupted: the documents above are complete; run the same command again to go on\n");
        return EXIT.interrupted;
      }
      if (s.failedPaths.length) warn(`nothing imported from: ${s.failedPaths.join(", ")}\n`);
      return s.failedPaths.length === args.length ? EXIT.failure : EXIT.ok;
    });
  } finally {
    pdf.close();
    process.off("SIGINT", onSigint);
  }
}
