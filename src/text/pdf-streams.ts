import { inflateSync, constants as zlib } from "node:zlib";

/**
 * Bytes one stream of a PDF may inflate to, and all of them together. A page's text needs far
 * less; pdf.js holds a page's streams whole once inflated. Images count too: a dictionary's
 * /Subtype is the sender's word, and a page may list any number of streams as its contents.
 */
export const PDF_STREAM_LIMIT = 32 * 1048576;
export const PDF_STREAMS_LIMIT = 256 * 1048576;

/** Why a PDF is not read: its streams inflate past a limit (a PDF bomb). */
export class PdfTooLarge extends Error {}

const mib = (n: number) => `${Math.round(n / 1048576)} MiB`;
const ABBREVIATED: Record<string, string> = {
  Fl: "FlateDecode",
  AHx: "ASCIIHexDecode",
  A85: "ASCII85Decode",
  LZW: "LZWDecode",
  RL: "RunLengthDecode",
};

/** Bytes looked back from `stream` for its dictionary. */
const DICT_WINDOW = 65_536;

/**
 * Each stream's dictionary (the text since the object before it ended) and its still-encoded
 * data, found by the `stream` and `endstream` keywords, scanning bytes (a large PDF is not
 * copied into a string).
 */
function* streams(pdf: Uint8Array): Generator<{ dict: string; data: Uint8Array }> {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  for (let at = buf.indexOf("stream"); at >= 0; at = buf.indexOf("stream", at + 6)) {
    if (buf.toString("latin1", at - 3, at) === "end") continue;
    let start = at + 6;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a) continue;
    start++;
    const from = Math.max(0, at - DICT_WINDOW);
    const before = buf.toString("latin1", from, at);
    const dict = before.slice(Math.max(0, before.lastIndexOf("endobj"), before.lastIndexOf("endstream")));
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict)?.[1];
    let end = length ? start + Number(length) : -1;
    if (end < start || end > buf.length) end = buf.indexOf("endstream", start);
    if (end < 0) end = buf.length;
    yield { dict, data: pdf.subarray(start, end) };
    at = Math.max(at, end - 6);
  }
}

/** The filters of a stream's dictionary, in the order they are undone. */
const filtersOf = (dict: string): string[] => {
  const f = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1] ?? "";
  return [...f.matchAll(/\/(\w+)/g)].map((m) => ABBREVIATED[m[1]!] ?? m[1]!);
};

/** One filter undone, at most `limit` bytes out; null for a filter this check does not decode. */
function undo(filter: string, data: Uint8Array, limit: number): Uint8Array | null {
  if (filter === "FlateDecode")
    // Sync flush: a truncated stream gives what it holds, as pdf.js reads it.
    return inflateSync(data, { maxOutputLength: limit + 1, finishFlush: zlib.Z_SYNC_FLUSH });
  if (filter === "ASCIIHexDecode")
    return Buffer.from(
      Buffer.from(data)
        .toString("latin1")
        .replace(/[^0-9a-f]/gi, ""),
      "hex",
    );
  return null;
}

/**
 * Measures what a PDF's streams inflate to, each stopped one byte past its limit, before pdf.js
 * reads it. Threat: a PDF bomb — a megabyte whose page inflates to gigabytes, which pdf.js
 * holds whole (docs/decisions/0097-pdf-bombs.md). Throws PdfTooLarge past a limit. A stream
 * this check cannot decode (damaged, encrypted, a filter it does not know) is left to pdf.js.
 */
export function checkPdfStreams(pdf: Uint8Array, limit = PDF_STREAM_LIMIT, total = PDF_STREAMS_LIMIT): void {
  let sum = 0;
  for (const s of streams(pdf)) {
    let data: Uint8Array | null = s.data;
    for (const f of filtersOf(s.dict)) {
      try {
        data = undo(f, data, limit);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
          throw new PdfTooLarge(`a stream inflates past ${mib(limit)} (a PDF bomb?)`);
        data = null;
      }
      if (!data) break;
      if (data.length > limit) throw new PdfTooLarge(`a stream inflates past ${mib(limit)} (a PDF bomb?)`);
    }
    sum += data?.length ?? s.data.length;
    if (sum > total) throw new PdfTooLarge(`its streams inflate past ${mib(total)} together (a PDF bomb?)`);
  }
}
