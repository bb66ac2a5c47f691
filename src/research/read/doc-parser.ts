import { decodeText } from "../../text/charset.ts";
import { type Extracted, extractMainText } from "../../text/html-extract.ts";
import { type PdfText, pdfToText } from "../../text/pdf.ts";
import { PdfTooLarge } from "../../text/pdf-streams.ts";
import { FetchError } from "./fetch-error.ts";

/**
 * Turns fetched bytes into text. The engine uses a pool of worker threads (parse-pool.ts)
 * so a large page or PDF never holds up the event loop that writes every stream's events;
 * the CLI and tests may parse inline.
 */
export interface DocParser {
  html(bytes: Uint8Array, contentType: string, url: string, signal?: AbortSignal): Promise<Extracted>;
  /** The first `maxPages` pages (default 30: the web reader's; `corpus add` reads whole files). */
  pdf(bytes: Uint8Array, url: string, signal?: AbortSignal, maxPages?: number): Promise<PdfText>;
}

/** Parses on the calling thread. */
export const inlineParser: DocParser = {
  async html(bytes, contentType, url) {
    return extractMainText(decodeText(bytes, contentType), url);
  },
  async pdf(bytes, url, signal, maxPages = 30) {
    try {
      return await pdfToText(bytes, maxPages, signal);
    } catch (e) {
      throw new FetchError(e instanceof PdfTooLarge ? "too_large" : "unsupported_type", url, (e as Error).message);
    }
  },
};
