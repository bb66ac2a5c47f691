import { closeSync, openSync, readSync } from "node:fs";

/** Characters kept of one document; the rest is cut with a message (README "Importing documents"). */
export const MAX_DOC_CHARS = 2_000_000;

/** A JS character is at most 3 bytes of UTF-8 (4-byte characters are two of them): enough bytes for any cap. */
export const bytesFor = (chars: number) => chars * 3;

/**
 * The first `limit` bytes of a file, without reading the rest: a 200 MB log costs only what
 * the cap keeps. `cut` says the file went on past them.
 */
export function readCapped(file: string, size: number, limit: number): { bytes: Uint8Array; cut: boolean } {
  const want = Math.min(size, limit);
  const bytes = new Uint8Array(want);
  const fd = openSync(file, "r");
  try {
    let got = 0;
    while (got < want) {
      const n = readSync(fd, bytes, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: got < want ? bytes.subarray(0, got) : bytes, cut: size > want };
  } finally {
    closeSync(fd);
  }
}

/** `text` kept to `max` characters, never splitting a surrogate pair. */
export function capChars(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return { text: text.slice(0, end), cut: true };
}
