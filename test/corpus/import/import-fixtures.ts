import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { importPaths } from "../../../src/corpus/import/import-paths.ts";
import type { ImportOptions, ImportProblem } from "../../../src/corpus/import/import-types.ts";
import { openSqliteStore } from "../../../src/store/sqlite/open.ts";
import { pdfFile } from "../../fixtures/tiny-pdf.ts";
import { sharedCollection } from "../collections-helpers.ts";

/** A fresh folder under the system's temp dir. */
export const tempDir = (tag = "rq-import-") => mkdtempSync(join(tmpdir(), tag));

/** Writes `files` (relative path → content) under `dir`, creating folders; returns `dir`. */
export function writeTree(dir: string, files: Record<string, string | Uint8Array>): string {
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), body);
  }
  return dir;
}

export const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
export const gz = (s: string) => gzipSync(Buffer.from(s));

/** A store on a fresh database file and an import into it that collects every problem. */
export function importer() {
  const store = openSqliteStore(join(tempDir("rq-import-db-"), "rq.db"));
  const problems: ImportProblem[] = [];
  const run = async (paths: string[], o: Partial<Omit<ImportOptions, "collection">> & { collection?: string } = {}) => {
    const { collection = "test", ...rest } = o;
    const c = await sharedCollection(store, collection);
    return await importPaths(store, paths, {
      collection: { id: c.id, name: c.name },
      onProblem: (p) => problems.push(p),
      ...rest,
    });
  };
  return { store, problems, run };
}

/**
 * A PDF encrypted with the standard security handler whose empty user password does not
 * open it: what a password-protected report looks like to a reader without the password.
 */
export function encryptedPdf(): Uint8Array {
  const hex = "ab".repeat(32);
  const objs = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    "<< /Length 10 >>\nstream\n0123456789\nendstream",
    `<< /Filter /Standard /V 1 /R 2 /O <${hex}> /U <${hex}> /P -4 >>`,
  ];
  const id = "01".repeat(16);
  return pdfFile(objs, `/Encrypt 5 0 R /ID [<${id}> <${id}>]`);
}
