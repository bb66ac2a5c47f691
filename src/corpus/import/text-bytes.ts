/** Decoded text and, when the bytes were not clean UTF-8, what was done about it. */
export type Decoded = { text: string; warning?: string } | { binary: string };

const SAMPLE = 65_536;

/** C0 controls other than tab, line feed, vertical tab, form feed and carriage return; DEL; U+FFFD. */
function oddChars(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 9 || (c > 13 && c < 32) || c === 127 || c === 0xfffd) n++;
  }
  return n;
}

/**
 * Text from a file that should hold text (.txt, .md). A UTF-8, UTF-16 BOM is honoured; NUL
 * bytes or more than 5% control or undecodable characters mean the file is binary (an image,
 * an archive named .txt) and it is refused. Bytes that are not UTF-8 are decoded as
 * Windows-1252 when nothing in them is UTF-8 (a legacy 8-bit file), otherwise the bad bytes
 * become U+FFFD; both with a warning. `cut`: the bytes end mid-file, so a character split
 * there is dropped rather than reported.
 */
export function decodeTextBytes(bytes: Uint8Array, cut: boolean): Decoded {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return checked(new TextDecoder("utf-16le").decode(bytes.subarray(2)));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return checked(new TextDecoder("utf-16be").decode(bytes.subarray(2)));
  if (bytes.subarray(0, SAMPLE).includes(0)) return { binary: "holds NUL bytes: binary, not text" };
  try {
    // ignoreBOM false (the default) drops a UTF-8 BOM.
    return checked(new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: cut }));
  } catch {
    const loose = new TextDecoder("utf-8").decode(bytes, { stream: cut });
    const bad = loose.match(/\uFFFD/g)?.length ?? 0;
    if (/[\u0080-\uFFFC]/.test(loose))
      return checked(loose, `invalid UTF-8 in ${bad} place${bad === 1 ? "" : "s"} (replaced with U+FFFD)`);
    return checked(new TextDecoder("windows-1252").decode(bytes), "not UTF-8: read as Windows-1252");
  }
}

/** Refuses decoded text that is mostly control or replacement characters (binary read as text). */
export function checked(text: string, warning?: string): Decoded {
  const sample = text.slice(0, SAMPLE);
  const odd = oddChars(sample);
  if (sample.length && odd / sample.length > 0.05) return { binary: "mostly control characters: binary, not text" };
  return warning ? { text, warning } : { text };
}
