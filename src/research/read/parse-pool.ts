import type { Extracted } from "../../text/html-extract.ts";
import type { PdfText } from "../../text/pdf.ts";
import { type PassageRanking, rankJob } from "../rank/rank-job.ts";
import type { Selected } from "../rank/select.ts";
import type { Source } from "../types.ts";
import { type Verified, type VerifyInput, verifyInput } from "../write/verify/verify-answer.ts";
import type { DocParser } from "./doc-parser.ts";
import { type ParsePoolOptions, parseThreads } from "./parse-pool-setup.ts";
import type { DocJob, PoolJob } from "./parse-worker.ts";

/**
 * Parses pages and PDFs on worker threads (parse-pool-setup.ts: spawned on first use, so an
 * idle server holds none; each job to the least busy). A worker that crashes or overruns a job
 * fails its jobs with typed FetchErrors and is replaced; if workers can't start at all,
 * parsing falls back to the calling thread rather than failing runs.
 */
export function createParsePool(
  o: ParsePoolOptions = {},
  fallback?: DocParser,
): DocParser & {
  close(): void;
  rank(job: PassageRanking, signal?: AbortSignal): Promise<Selected[]>;
  verify(input: VerifyInput, signal?: AbortSignal): Promise<Verified<Source>>;
} {
  const threads = parseThreads(o);
  const viaPool = <T>(job: DocJob, inline: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    let where: "worker" | "inline" = "worker";
    const inPlace = fallback
      ? () => {
          where = "inline";
          return inline();
        }
      : undefined;
    return (threads.run(job, { signal, inPlace }) as Promise<T>).then(
      (v) => {
        o.onParse?.(where, true);
        return v;
      },
      (e) => {
        o.onParse?.(where, false);
        throw e;
      },
    );
  };

  /**
   * A run's ranking or claim check (not parses: not counted by onParse). Both are bounded
   * (docs/decisions/0115-passage-work-off-the-server-thread.md), so where workers can't start
   * this thread does them; a job a worker failed is not redone here: an overrun redone inline
   * held every request for its whole length (docs/decisions/0116-the-claim-check-never-redone-here.md).
   */
  const offThread = <I, T>(job: PoolJob & { input: I }, inline: (input: I) => T, signal?: AbortSignal): Promise<T> =>
    threads.run(job, { signal, inPlace: async () => inline(job.input) }) as Promise<T>;

  return {
    html: (bytes, contentType, url, signal) =>
      viaPool<Extracted>(
        { kind: "html", bytes, contentType, url },
        () => fallback!.html(bytes, contentType, url, signal),
        signal,
      ),
    pdf: (bytes, url, signal, maxPages) =>
      viaPool<PdfText>(
        { kind: "pdf", bytes, contentType: "application/pdf", url, pages: maxPages },
        () => fallback!.pdf(bytes, url, signal, maxPages),
        signal,
      ),
    rank: (job, signal) =>
      offThread({ kind: "rank", url: `rank:${job.docs.length} pages`, input: job }, rankJob, signal),
    verify: (input, signal) =>
      offThread({ kind: "verify", url: `verify:${input.sources[0]?.url ?? ""}`, input }, verifyInput, signal),
    close: () => threads.close(),
  };
}
