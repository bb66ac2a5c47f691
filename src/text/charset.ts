import iconv from "iconv-lite";

const label = (s: string | null | undefined) =>
  s
    ?.trim()
    .replace(/^["']|["']$/g, "")
    .toLowerCase() || undefined;

/** Whether we can decode `cs` at all; a bogus header label ("none") then defers to the page. */
function known(cs: string): boolean {
  try {
    new TextDecoder(cs);
    return true;
  } catch {
    return iconv.encodingExists(cs);
  }
}

/**
 * The page's encoding: BOM, then the Content-Type charset, then a <meta> (charset or
 * http-equiv) in the first 2 KB, else UTF-8. The BOM goes first as in HTML's sniffing
 * rules: servers mislabel far more often than a BOM lies.
 */
export function sniffCharset(bytes: Uint8Array, contentType: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  const fromHeader = label(/charset\s*=\s*([^;\s]+)/i.exec(contentType)?.[1]);
  if (fromHeader && known(fromHeader)) return fromHeader;
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w:.-]+)/i.exec(head);
  const fromMeta = label(meta?.[1]);
  // A <meta> we could read is itself ASCII, so it can't be UTF-16 (HTML says: use UTF-8).
  if (fromMeta?.startsWith("utf-16")) return "utf-8";
  if (fromMeta === "x-user-defined") return "windows-1252";
  return fromMeta && known(fromMeta) ? fromMeta : "utf-8";
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
