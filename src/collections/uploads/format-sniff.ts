import type { FileFormat } from "../../corpus/import/formats.ts";
import { ENDING } from "./file-name.ts";

/** What a file's first bytes say it is, for the kinds a file misnamed as another most often is. */
const KINDS: [string, (h: Uint8Array, text: string) => boolean][] = [
  ["a PDF", (_, t) => t.startsWith("%PDF-")],
  ["gzip-compressed", (h) => h[0] === 0x1f && h[1] === 0x8b],
  ["a ZIP archive (Word, Excel, EPUB and OpenDocument files are ZIPs)", (h) => h[0] === 0x50 && h[1] === 0x4b],
  ["a PNG image", (h) => h[0] === 0x89 && h[1] === 0x50 && h[2] === 0x4e && h[3] === 0x47],
  ["a JPEG image", (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff],
  ["a GIF image", (_, t) => t.startsWith("GIF8")],
  ["a program (ELF)", (h) => h[0] === 0x7f && h[1] === 0x45 && h[2] === 0x4c && h[3] === 0x46],
  ["a program (Windows)", (_, t) => t.startsWith("MZ")],
  ["an old Office document", (h) => h[0] === 0xd0 && h[1] === 0xcf && h[2] === 0x11 && h[3] === 0xe0],
  ["HTML", (_, t) => /^\s*(<!doctype html|<html|<head|<body|<!--)/i.test(t)],
];

const kindOf = (head: Uint8Array): string | null => {
  const text = new TextDecoder("latin1").decode(head);
  return KINDS.find(([, test]) => test(head, text))?.[0] ?? null;
};

/**
 * Why a file is not the format its name claims, from its first bytes (a few KB), or null.
 * A PDF must say %PDF- in its first KB (as readers require); a .jsonl.gz must be gzip; a text
 * format must not open like a PDF, an archive, an image or a program. Finer checks (NUL bytes,
 * control characters, bad JSON lines) are the importer's, on the whole text.
 */
export function formatMismatch(head: Uint8Array, claimed: FileFormat): string | null {
  if (head.length === 0) return null; // the importer says "empty file"
  const kind = kindOf(head);
  const as = `named ${ENDING[claimed]}`;
  // Readers (pdf.js among them) find the header anywhere in the first KB: junk may come before it.
  if (claimed === "pdf")
    return new TextDecoder("latin1").decode(head.subarray(0, 1024)).includes("%PDF-")
      ? null
      : `not a PDF: it is ${kind ?? "something else (no %PDF- header)"} (${as})`;
  if (claimed === "jsonl.gz")
    return kind === "gzip-compressed" ? null : `not gzip-compressed: it is ${kind ?? "something else"} (${as})`;
  if (kind === null || kind === "HTML") return null;
  return `not text: it is ${kind} (${as})`;
}
