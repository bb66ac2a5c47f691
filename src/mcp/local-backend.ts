import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { readUrl } from "../research/read/read-url.ts";
import { watchedParser } from "../research/read/watched-parser.ts";
import type { LocalRuns } from "../runs/local/local-runs.ts";
import type { LocalBackend } from "./backend.ts";

/** What a local `mcp` with no database says at start and after a failed research call. */
export function noDatabaseNote(path: string): string {
  return `note: no database at ${path} (DATABASE_PATH), so no collection was searched; set DATABASE_PATH to the absolute path of the server's database file in the MCP client's configuration`;
}

/** A page read by `extract` gets as long as the CLI's `extract`: 20 s to fetch, 30 s in all. */
const EXTRACT_FETCH_MS = 20_000;
const EXTRACT_TOTAL_MS = 30_000;

/**
 * The engine in this process with this machine's configuration, as `ask` runs it: no
 * server, no account, nothing recorded; runs read the shared collections and the private
 * ones of `owners` (account ids). A cancelled `research` stops its run: nobody else
 * can ever read it, so finishing it would only spend the model's tokens.
 */
export function localBackend(cfg: Config, { runs, close, missingDatabase }: LocalRuns, owners: string[]): LocalBackend {
  // Threat: an agent firing research calls in a loop would run them all at once on this
  // machine (each a dozen fetches and a model call): past the cap a call is refused at once.
  let running = 0;
  const parser = watchedParser(cfg.PARSE_MEMORY_MB);
  return {
    mode: "local",
    ...(missingDatabase ? { note: noDatabaseNote(missingDatabase) } : {}),
    async research(question, call) {
      if (running >= cfg.MCP_MAX_CONCURRENT)
        throw new AppError(
          "too_many_calls",
          `${running} research calls are running, as many as MCP_MAX_CONCURRENT allows; try again when one has answered`,
        );
      running++;
      try {
        return await runs.run(runs.local(question, owners), {
          signal: call.signal,
          onEvent: (e) => {
            if (e.event === "progress") call.onProgress({ stage: e.data.stage, message: e.data.message });
          },
        });
      } finally {
        running--;
      }
    },
    async extract(url, signal) {
      const doc = await readUrl(url, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(EXTRACT_TOTAL_MS)]),
        allowPrivate: cfg.FETCH_ALLOW_PRIVATE,
        timeoutMs: EXTRACT_FETCH_MS,
        parser,
      });
      return { url: doc.final_url, title: doc.title, text: doc.text };
    },
    close: async () => {
      parser.close();
      await close();
    },
  };
}
