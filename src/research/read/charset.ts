import iconv from "iconv-lite";

const label = (s: string | null | undefined) => s?.trim().replace(/^["']|["']$/g, "").toLowerCase() || undefined;

/**
 * The page's encoding: BOM, then the Content-Type charset, then a <meta> in the first
 * 2 KB, else UTF-8 (HTML's rules in short).
 */
export function sniffCharset(bytes: Uint8Array, contentType: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  const fromHeader = label(/charset\s*=\s*([^;\s]+)/i.exec(contentType)?.[1]);
  if (fromHeader) return fromHeader;
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w:.-]+)/i.exec(head);
  return label(meta?.[1]) ?? "utf-8";
}

/** Decodes with the platform's TextDecoder where it knows the label, else iconv-lite. */
export function decodeText(bytes: Uint8Array, contentType: string): string {
  const cs = sniffCharset(bytes, contentType);
  try {
    return new TextDecoder(cs).decode(bytes);
  } catch {
    if (iconv.encodingExists(cs)) return iconv.decode(Buffer.from(bytes), cs);
    return new TextDecoder("utf-8").decode(bytes);
  }
}
