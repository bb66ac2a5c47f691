import { closeSync, openSync, readSync } from "node:fs";

type Bytes = ReadableWritablePair<Uint8Array, Uint8Array>;

/** One line of a JSONL file; `tooLong` when it outgrew the limit and its text was dropped. */
export interface JsonlLine {
  n: number;
  text: string;
  tooLong: boolean;
  /** Uncompressed bytes of the file up to the end of this line. */
  offset: number;
}

/**
 * How many bytes a file holds uncompressed: its size, or for gzip the size its trailer
 * records (modulo 4 GiB, as gzip keeps it; a time-left estimate can live with that).
 */
export function uncompressedSize(file: string, size: number, gz: boolean): number {
  if (!gz || size < 18) return size;
  const tail = new Uint8Array(4);
  const fd = openSync(file, "r");
  try {
    readSync(fd, tail, 0, 4, size - 4);
  } finally {
    closeSync(fd);
  }
  return new DataView(tail.buffer).getUint32(0, true);
}

/**
 * The lines of a JSONL file (gzip-compressed when `gz`), streamed: memory holds one chunk and
 * one line, never the file. A line longer than `maxLine` characters is not kept whole: it
 * comes out empty with `tooLong` set.
 */
export function jsonlLines(file: string, gz: boolean, maxLine: number, gzLimit = Infinity): AsyncGenerator<JsonlLine> {
  const raw = Bun.file(file).stream();
  if (!gz) return streamLines(raw, maxLine);
  // lib.dom types these streams' writable side as BufferSource, which TS will not take for Uint8Array chunks.
  return streamLines(
    raw.pipeThrough(new DecompressionStream("gzip") as unknown as Bytes).pipeThrough(capped(gzLimit)),
    maxLine,
  );
}

/** Bytes a .jsonl.gz may expand to: 100 times its size, at least 64 MiB (an upload's limit is lower still). */
export const gzipLimit = (bytes: number) => Math.max(bytes * 100, 64 * 1048576);

/**
 * Passes bytes on until `limit` have passed, then fails. Threat: a gzip bomb (a few MB that
 * expand to terabytes) read on for hours; the lines before the limit stay imported.
 */
function capped(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, out) {
      seen += chunk.byteLength;
      if (seen > limit) throw new Error(`expands past ${Math.round(limit / 1048576)} MiB (a gzip bomb?)`);
      out.enqueue(chunk);
    },
  });
}

/** The lines of a byte stream as they arrive (a file, standard input), under the same rules as jsonlLines. */
export async function* streamLines(bytes: ReadableStream<Uint8Array>, maxLine: number): AsyncGenerator<JsonlLine> {
  const text = bytes.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>);
  let n = 0;
  let offset = 0;
  let rest = "";
  let tooLong = false;
  for await (const chunk of text) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const p of parts) {
      n++;
      offset += Buffer.byteLength(p) + 1;
      const long = tooLong || p.length > maxLine;
      yield { n, text: long ? "" : p.replace(/\r$/, ""), tooLong: long, offset };
      tooLong = false;
    }
    if (rest.length > maxLine) {
      // The dropped part still counts towards the offset.
      offset += Buffer.byteLength(rest);
      tooLong = true;
      rest = "";
    }
  }
  if (rest.trim() || tooLong) {
    offset += Buffer.byteLength(rest);
    yield { n: n + 1, text: tooLong ? "" : rest.replace(/\r$/, ""), tooLong, offset };
  }
}
