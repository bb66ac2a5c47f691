import { type FileFormat, formatOf } from "../../corpus/import/formats.ts";

/** A file name as a doc_id is at most this many bytes of UTF-8 (a file system's own name limit). */
export const MAX_NAME_BYTES = 255;

// C0 and C1 controls and DEL; bidirectional overrides and isolates (a name that reads
// "report.pdf" while it is "fdp.troper"); zero-width and byte-order marks (two names that look one).
const FORBIDDEN: [number, number][] = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];
const forbidden = (s: string) => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (FORBIDDEN.some(([lo, hi]) => c >= lo && c <= hi)) return true;
  }
  return false;
};

/**
 * Why an uploaded file's name cannot be its doc_id, or null. Threats: a path that climbs out of
 * the collection or the spool ("../", "/", "\"), names that hide what they are (controls,
 * direction marks), and names too long for a file system. Markup ("<b>") is allowed: a name is
 * data, sent as JSON and shown as text, never as HTML (README "Collections for a team").
 */
export function fileNameProblem(name: string): string | null {
  if (name === "") return "the file has no name";
  if (forbidden(name)) return "the name holds control or invisible characters";
  if (name.includes("/") || name.includes("\\"))
    return 'the name holds "/" or "\\" (send the file\'s own name, no folder)';
  if (name === "." || name === "..") return 'the name is "." or ".."';
  if (name.trim() !== name) return "the name starts or ends with a space";
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `the name is longer than ${MAX_NAME_BYTES} bytes`;
  return null;
}

/** The name a file is kept under: NFC, so a name typed on macOS (NFD) and elsewhere is one doc_id. */
export const docIdOf = (fileName: string): string => fileName.normalize("NFC");

/** The canonical ending of each format: a spooled file carries it, so the importer reads it as that format. */
export const ENDING: Record<FileFormat, string> = {
  pdf: ".pdf",
  html: ".html",
  markdown: ".md",
  text: ".txt",
  jsonl: ".jsonl",
  "jsonl.gz": ".jsonl.gz",
};

/** The format a name's ending claims, and the ending its spooled copy gets; null for one we do not import. */
export function claimedFormat(name: string): { format: FileFormat; ending: string } | null {
  const format = formatOf(name);
  return format ? { format, ending: ENDING[format] } : null;
}

/** A format's name as the upload row keeps it, or null for one that is not (a row from a newer version). */
export const formatNamed = (s: string): FileFormat | null => (s in ENDING ? (s as FileFormat) : null);
