import { decodeText } from "../../text/charset.ts";
import { nextTurn } from "../../util/turns.ts";
import { type DocParser, inlineParser } from "./doc-parser.ts";
import { FetchError } from "./fetch-error.ts";
import { type SafeFetchOptions, safeFetch } from "./safe-fetch.ts";

/** A page or document as the engine reads it. */
export interface ReadDoc {
  url: string;
  final_url: string;
  title: string;
  text: string;
  kind: "html" | "pdf" | "text";
  published_at?: string;
  author?: string;
}

export const MIN_TEXT_CHARS = 200;

/** Length with CJK characters counted three times: one of them carries about a word. */
function textWeight(text: string): number {
  return (
    text.length +
    2 * (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0)
  );
}

/**
 * Fetches one URL through the guard and turns it into text by its content type: HTML and
 * XHTML through the extractor, PDF (also when sent as octet-stream), plain text. Anything
 * else is "unsupported_type"; under MIN_TEXT_CHARS of text is "empty".
 */
/** How a page read went on the wire (its trace span's attributes), kept beside the doc, not in it. */
export interface FetchFacts {
  status: number;
  bytes: number;
  parseMs: number;
}
const facts = new WeakMap<ReadDoc, FetchFacts>();
export const fetchFactsOf = (doc: ReadDoc): FetchFacts | undefined => facts.get(doc);

export async function readUrl(url: string, o: SafeFetchOptions & { parser?: DocParser }): Promise<ReadDoc> {
  const parser = o.parser ?? inlineParser;
  const res = await safeFetch(url, o);
  // Handing the page to a parser (a copy of its bytes) waits behind new requests (src/util/turns.ts).
  await nextTurn();
  const t0 = performance.now();
  const type = res.contentType.split(";")[0]!.trim().toLowerCase();
  const isPdf =
    type === "application/pdf" ||
    (type === "application/octet-stream" &&
      res.body[0] === 0x25 &&
      res.body[1] === 0x50 &&
      res.body[2] === 0x44 &&
      res.body[3] === 0x46);
  let doc: ReadDoc;
  if (isPdf) {
    const p = await parser.pdf(res.body, res.url, o.signal);
    doc = { url, final_url: res.url, title: p.title ?? "", text: p.text, kind: "pdf" };
  } else if (
    type === "text/html" ||
    type === "application/xhtml+xml" ||
    (type === "" && /^\s*</.test(decodeText(res.body.subarray(0, 256), "")))
  ) {
    const x = await parser.html(res.body, res.contentType, res.url, o.signal);
    doc = {
      url,
      final_url: res.url,
      title: x.title,
      text: x.text,
      kind: "html",
      published_at: x.published_at,
      author: x.author,
    };
  } else if (type === "text/plain" || type === "text/markdown") {
    doc = { url, final_url: res.url, title: "", text: decodeText(res.body, res.contentType).trim(), kind: "text" };
  } else {
    throw new FetchError("unsupported_type", res.url, `content type ${type || "(none)"} is not readable`);
  }
  if (textWeight(doc.text) < MIN_TEXT_CHARS) throw new FetchError("empty", res.url, "the page has too little text");
  facts.set(doc, { status: res.status, bytes: res.body.byteLength, parseMs: Math.round(performance.now() - t0) });
  return doc;
}
