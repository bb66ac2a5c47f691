import { basename } from "node:path";
import { decodeText } from "../../text/charset.ts";
import { extractMainText } from "../../text/html-extract.ts";
import { pdfToText } from "../../text/pdf.ts";
import { PdfTooLarge } from "../../text/pdf-streams.ts";
import { capTitle, MAX_TITLE_CHARS } from "../../text/title.ts";
import { sha256Hex } from "../../util/crypto.ts";
import type { FileFormat } from "./formats.ts";
import type { ReadDocument, ReadPdf } from "./import-types.ts";
import { markdownText } from "./markdown-text.ts";
import { bytesFor, capChars, readCapped } from "./read-capped.ts";
import { checked, type Decoded, decodeTextBytes } from "./text-bytes.ts";
import type { FileEntry } from "./walk-paths.ts";

/** A whole local PDF is read (the web reader stops at 30 pages); the character cap still applies. */
const PDF_PAGES = 5000;
/** pdf.js needs the whole file in memory: larger PDFs are refused rather than risk the process. */
export const MAX_PDF_BYTES = 200 * 1024 * 1024;

export type FileRead = { doc: ReadDocument; warnings: string[] } | { skip: string };

const stem = (file: string) => basename(file).replace(/\.[^.]+$/, "");

/** One PDF, HTML, Markdown or text file as one document, or why it is left out. */
export async function readFile(
  entry: FileEntry,
  format: Exclude<FileFormat, "jsonl" | "jsonl.gz">,
  maxChars: number,
  signal?: AbortSignal,
  readPdf: ReadPdf = pdfToText,
): Promise<FileRead> {
  if (entry.bytes === 0) return { skip: "empty file" };
  if (format === "pdf" && entry.bytes > MAX_PDF_BYTES)
    return { skip: `PDF larger than ${MAX_PDF_BYTES / 1024 / 1024} MB: not read` };
  const { bytes, cut } = readCapped(entry.file, entry.bytes, format === "pdf" ? MAX_PDF_BYTES : bytesFor(maxChars));
  let title: string | null = null;
  let decoded: Decoded;
  if (format === "pdf") {
    try {
      const pdf = await readPdf(bytes, PDF_PAGES, signal);
      title = pdf.title ?? null;
      decoded = { text: pdf.text };
    } catch (e) {
      if (e instanceof PdfTooLarge) return { skip: `${e.message}: not read` };
      return {
        skip: `cannot read the PDF (encrypted or damaged): ${(e as Error).message.replace(/^the PDF could not be read: /, "")}`,
      };
    }
    if (!decoded.text) return { skip: "no text in the PDF (scanned pages need OCR first)" };
  } else if (format === "html") {
    decoded = checked(decodeText(bytes, ""));
    if ("text" in decoded) {
      const x = extractMainText(decoded.text);
      title = x.title || null;
      decoded = { text: x.text };
    }
  } else {
    decoded = decodeTextBytes(bytes, cut);
    if ("text" in decoded && format === "markdown") {
      const md = markdownText(decoded.text);
      title = md.title;
      decoded = { ...decoded, text: md.text };
    } else if ("text" in decoded) {
      title =
        capTitle(
          decoded.text
            .trimStart()
            .slice(0, MAX_TITLE_CHARS * 4)
            .split("\n", 1)[0]!,
        ) || null;
    }
  }
  if ("binary" in decoded) return { skip: decoded.binary };
  if (!decoded.text.trim()) return { skip: "no text in the file" };
  const warnings = decoded.warning ? [decoded.warning] : [];
  const capped = capChars(decoded.text, maxChars);
  if (cut || capped.cut) warnings.push(`longer than ${maxChars.toLocaleString("en")} characters: cut there`);
  return {
    warnings,
    doc: {
      docId: entry.docId,
      title: capTitle(title ?? "") || stem(entry.file),
      text: capped.text,
      url: null,
      path: entry.file,
      format,
      contentHash: sha256Hex(bytes),
      truncated: cut || capped.cut,
    },
  };
}
