// Worker-thread entry of the parse pool: HTML extraction and PDF text, off the main loop.
// Listed as a second entrypoint of `bun build --compile` so the binary carries it.

import { inlineParser } from "./doc-parser.ts";
import { FetchError } from "./fetch-error.ts";

/** A job from the pool. */
export interface ParseJob {
  id: number;
  kind: "html" | "pdf";
  bytes: Uint8Array;
  contentType: string;
  url: string;
  /** PDF pages to read (default: the web reader's 30). */
  pages?: number;
}
/** The answer: the parsed value, or a typed failure. */
export type ParseReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; reason: string; message: string };

declare const self: Worker;

self.onmessage = async (e: MessageEvent<ParseJob>) => {
  const { id, kind, bytes, contentType, url, pages } = e.data;
  try {
    const value =
      kind === "pdf"
        ? await inlineParser.pdf(bytes, url, undefined, pages)
        : await inlineParser.html(bytes, contentType, url);
    self.postMessage({ id, ok: true, value } satisfies ParseReply);
  } catch (err) {
    const reason = err instanceof FetchError ? err.reason : "unsupported_type";
    self.postMessage({
      id,
      ok: false,
      reason,
      message: err instanceof Error ? err.message : String(err),
    } satisfies ParseReply);
  }
};
