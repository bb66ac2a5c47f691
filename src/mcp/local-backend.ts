import type { Config } from "../config/schema.ts";
import { readUrl } from "../research/read/read-url.ts";
import type { LocalRuns } from "../runs/local-runs.ts";
import type { LocalBackend } from "./backend.ts";

/** A page read by `extract` gets as long as the CLI's `extract`: 20 s to fetch, 30 s in all. */
const EXTRACT_FETCH_MS = 20_000;
const EXTRACT_TOTAL_MS = 30_000;

/**
 * The engine in this process with this machine's configuration, as `ask` runs it: no
 * server, no account, nothing recorded; runs read the shared collections and the private
 * ones of `owners` (account ids). A cancelled `research` stops its run: nobody else
 * can ever read it, so finishing it would only spend the model's tokens.
 */
export function localBackend(cfg: Config, { runs, close }: LocalRuns, owners: string[]): LocalBackend {
  return {
    mode: "local",
    research: (question, call) =>
      runs.run(runs.local(question, owners), {
        signal: call.signal,
        onEvent: (e) => {
          if (e.event === "progress") call.onProgress({ stage: e.data.stage, message: e.data.message });
        },
      }),
    async extract(url, signal) {
      const doc = await readUrl(url, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(EXTRACT_TOTAL_MS)]),
        allowPrivate: cfg.FETCH_ALLOW_PRIVATE,
        timeoutMs: EXTRACT_FETCH_MS,
      });
      return { url: doc.final_url, title: doc.title, text: doc.text };
    },
    close,
  };
}
