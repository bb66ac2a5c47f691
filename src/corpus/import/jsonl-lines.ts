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
export function jsonlLines(file: string, gz: boolean, maxLine: number): AsyncGenerator<JsonlLine> {
  const raw = Bun.file(file).stream();
  // lib.dom types these streams' writable side as BufferSource, which TS will not take for Uint8Array chunks.
  return streamLines(gz ? raw.pipeThrough(new DecompressionStream("gzip") as unknown as Bytes) : raw, maxLine);
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
