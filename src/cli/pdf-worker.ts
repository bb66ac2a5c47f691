import type { ReadPdf } from "../corpus/import/import-types.ts";
import { FetchError } from "../research/read/fetch-error.ts";
import { watchedParser } from "../research/read/watched-parser.ts";
import { PdfTooLarge } from "../text/pdf-streams.ts";

/**
 * `corpus add`'s PDF reader: the web reader's parse pool, one worker, under its memory
 * watchdog. Threat: a PDF bomb the stream check cannot measure (LZW, ASCII85 chains, encrypted
 * streams) taking the machine's memory; its worker is stopped and the file skipped with the
 * reason (docs/decisions/0098-pdf-parse-watchdog.md).
 */
export function pdfWorker(memoryMb: number): { readPdf: ReadPdf; close(): void } {
  const pool = watchedParser(memoryMb);
  return {
    readPdf: (bytes, maxPages, signal) =>
      pool.pdf(bytes, "file", signal, maxPages).catch((e) => {
        throw e instanceof FetchError && e.reason === "too_large" ? new PdfTooLarge(e.message) : e;
      }),
    close: () => pool.close(),
  };
}
