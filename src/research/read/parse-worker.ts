// Worker-thread entry of the parse pool: HTML extraction, PDF text, ranking and the claim check, off the main loop.
// Listed as a second entrypoint of `bun build --compile` so the binary carries it.

import { type PassageRanking, rankJob } from "../rank/rank-job.ts";
import { type VerifyInput, verifyInput } from "../write/verify/verify-answer.ts";
import { inlineParser } from "./doc-parser.ts";
import { FetchError } from "./fetch-error.ts";

/** A document to parse. */
export interface DocJob {
  kind: "html" | "pdf";
  bytes: Uint8Array;
  contentType: string;
  url: string;
  /** PDF pages to read (default: the web reader's 30). */
  pages?: number;
}
/** An answer to verify (docs/decisions/0109-verification-off-the-server-thread.md); `url` only names it in errors. */
export interface VerifyJob {
  kind: "verify";
  url: string;
  input: VerifyInput;
}
/** A run's pages to split and rank (docs/decisions/0115-passage-work-off-the-server-thread.md). */
export interface RankJob {
  kind: "rank";
  url: string;
  input: PassageRanking;
}
/** What the pool hands a worker. */
export type PoolJob = DocJob | VerifyJob | RankJob;
/** A job from the pool. */
export type ParseJob = PoolJob & { id: number };
/** The answer: the parsed value, or a typed failure. */
export type ParseReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; reason: string; message: string };

declare const self: Worker;

self.onmessage = async (e: MessageEvent<ParseJob>) => {
  const job = e.data;
  const { id } = job;
  try {
    const value =
      job.kind === "verify"
        ? verifyInput(job.input)
        : job.kind === "rank"
          ? rankJob(job.input)
          : job.kind === "pdf"
            ? await inlineParser.pdf(job.bytes, job.url, undefined, job.pages)
            : await inlineParser.html(job.bytes, job.contentType, job.url);
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
