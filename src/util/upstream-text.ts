import { collapse } from "./collapse.ts";
import { scrubSecrets } from "./scrub-secrets.ts";

/** An error body is read this far for its message; the rest is cancelled. */
export const MAX_ERROR_BODY_BYTES = 16 * 1024;
/** Longest upstream error text kept: enough for a sentence, short enough for a progress line. */
export const UPSTREAM_TEXT_MAX = 200;

/** The first `max` bytes of a body as text; a body that ends early is read whole. */
export async function readBodyPrefix(res: Response, max = MAX_ERROR_BODY_BYTES): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  // A multi-byte character cut at the cap decodes as U+FFFD instead of failing.
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, max));
}

// Where the APIs we call put their words: Brave {error: {detail}} (its reference: {errors: [{detail}]}),
// Tavily {detail: {error}}, OpenAlex {error, message}, Semantic Scholar {message} or {error},
// Crossref {message: [{message}]}, OpenAI-style {error: {message}}, FastAPI {detail: [{msg}]},
// OAuth {error, error_description}.
const KEYS = ["error", "errors", "message", "detail", "msg", "error_description"] as const;

/** The human text inside a JSON error: at most two distinct parts ("Invalid query: per_page is not valid"). */
function fromJson(x: unknown, depth = 0): string {
  if (typeof x === "string") return x.trim();
  if (depth > 4 || x === null || typeof x !== "object") return "";
  if (Array.isArray(x))
    return x
      .slice(0, 5)
      .map((v) => fromJson(v, depth + 1))
      .filter(Boolean)
      .join("; ");
  const o = x as Record<string, unknown>;
  const parts = [...new Set(KEYS.map((k) => fromJson(o[k], depth + 1)).filter(Boolean))].slice(0, 2);
  if (parts.length < 2) return parts[0] ?? "";
  return `${parts[0]!.replace(/[.:;]\s*$/, "")}: ${parts[1]}`;
}

// Judged by the text, not the content type: Flask labels a bare "Too Many Requests" text/html.
const looksLikeMarkup = (s: string) => /<(!doctype|\?xml|\/?[a-z][\w:-]*[\s>/])/i.test(s);

/**
 * What an upstream said in an error body: the message of a JSON error, or a plain-text
 * body as it is. HTML pages (proxies', frameworks' error pages) and other markup say
 * nothing we can pass on; undefined then, and the status alone is reported.
 */
export function upstreamMessage(body: unknown, contentType: string | null = null): string | undefined {
  // An SDK hands over the error body already parsed.
  if (body !== null && typeof body === "object") return collapse(fromJson(body)) || undefined;
  if (typeof body !== "string") return undefined;
  const text = body.trim();
  if (!text) return undefined;
  const ct = (contentType ?? "").toLowerCase();
  if (/json/.test(ct) || /^[{[]/.test(text)) {
    try {
      return collapse(fromJson(JSON.parse(text))) || undefined;
    } catch {
      // A JSON error cut at our read cap, or not JSON after all: no message worth guessing at.
      if (/json/.test(ct) || /^[{[]\s*"/.test(text)) return undefined;
    }
  }
  if (looksLikeMarkup(text)) return undefined;
  return collapse(text) || undefined;
}

/**
 * Upstream text as it is kept in errors, events and logs: secrets masked (`sent`: the values
 * of our own request headers), then one line cut near `max`. Masking comes first, so a cut
 * never leaves half a key unmasked.
 */
export const keepUpstream = (s: string, sent: readonly string[] = [], max = UPSTREAM_TEXT_MAX) =>
  collapse(scrubSecrets(s, sent), max);
