/**
 * A multipart/form-data body (RFC 7578) read as it arrives: memory holds one chunk and a
 * boundary's length of the next, never a part, so a file of any size streams through to disk.
 */

/** What the body holds, in order: a part's headers, its bytes in pieces, its end. */
export type MultipartEvent =
  | { type: "part"; name: string | null; filename: string | null }
  | { type: "data"; bytes: Uint8Array }
  | { type: "end" };

/** A body that is not multipart as announced (`incomplete`: it stopped before its closing boundary). */
export class MultipartError extends Error {
  constructor(
    readonly incomplete: boolean,
    message: string,
  ) {
    super(message);
  }
}

/** A part's headers beyond this are not a form's: refused rather than held. */
const MAX_HEADER_BYTES = 16_384;
const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function boundaryOf(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** A header parameter (`name`, `filename`, RFC 5987 `filename*`), unquoted. */
function param(header: string, key: string): string | null {
  const star = new RegExp(`;\\s*${key}\\*\\s*=\\s*([\\w-]+)'[^']*'([^;\\s]*)`, "i").exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[2]!);
    } catch {
      /* a broken extended value: fall back to the plain one */
    }
  }
  // Browsers send a quoted name as it is, with only '"', CR and LF percent-encoded (the HTML
  // standard's form encoding): a backslash is a character of the name, not an escape.
  const m = new RegExp(`;\\s*${key}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, "i").exec(header);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/%22|%0D|%0A/gi, (x) => decodeURIComponent(x)) : m[2]!;
}

function partHeaders(block: Buffer): { name: string | null; filename: string | null } {
  // Browsers send names as raw UTF-8 in the header.
  const lines = new TextDecoder().decode(block).split("\r\n");
  const disposition = lines.find((l) => /^content-disposition\s*:/i.test(l));
  if (!disposition || !/:\s*form-data\s*(;|$)/i.test(disposition))
    throw new MultipartError(false, "a part has no Content-Disposition: form-data header");
  return { name: param(disposition, "name"), filename: param(disposition, "filename") };
}

/**
 * The events of a multipart body. Throws MultipartError on a body that breaks the format or
 * ends before its closing boundary; whatever follows the closing boundary is ignored.
 */
export async function* multipartEvents(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
): AsyncGenerator<MultipartEvent> {
  // The first boundary may open the body; with a CRLF put in front, every delimiter is "\r\n--boundary".
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length - 1;
  let buf: Buffer = Buffer.from(CRLF);
  let state: "preamble" | "after-delimiter" | "headers" | "body" | "done" = "preamble";
  for await (const chunk of body) {
    if (state === "done") continue;
    buf = buf.length ? Buffer.concat([buf, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      if (state === "preamble" || state === "body") {
        const at = buf.indexOf(delimiter);
        if (at < 0) {
          const safe = buf.length - keep;
          if (state === "body" && safe > 0) yield { type: "data", bytes: buf.subarray(0, safe) };
          if (safe > 0) buf = buf.subarray(safe);
          break;
        }
        if (state === "body") {
          if (at > 0) yield { type: "data", bytes: buf.subarray(0, at) };
          yield { type: "end" };
        }
        buf = buf.subarray(at + delimiter.length);
        state = "after-delimiter";
      } else if (state === "after-delimiter") {
        // "--" closes the body; else optional padding, then CRLF and the next part's headers.
        if (buf.length < 2) break;
        if (buf[0] === 0x2d && buf[1] === 0x2d) {
          state = "done";
          break;
        }
        const eol = buf.indexOf(CRLF);
        if (eol < 0) {
          if (buf.length > 256) throw new MultipartError(false, "a boundary line does not end");
          break;
        }
        if (buf.subarray(0, eol).some((b) => b !== 0x20 && b !== 0x09))
          throw new MultipartError(false, "text after a boundary");
        buf = buf.subarray(eol);
        state = "headers";
      } else if (state === "headers") {
        // `buf` starts with the CRLF that ended the boundary line: headers end at the first empty line.
        const end = buf.indexOf(HEADERS_END);
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw new MultipartError(false, "a part's headers are too long");
          break;
        }
        yield { type: "part", ...partHeaders(buf.subarray(CRLF.length, end)) };
        // The CRLF before the next delimiter belongs to the delimiter: keep the body from here.
        buf = buf.subarray(end + HEADERS_END.length);
        state = "body";
      } else break;
    }
  }
  if (state !== "done") throw new MultipartError(true, "the body ended before its closing boundary");
}
