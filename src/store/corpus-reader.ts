import { Database } from "bun:sqlite";
import type { CorpusIndex, CorpusReaderSource } from "./corpus-index.ts";
import { sqliteCorpus } from "./sqlite/corpus.ts";
import { sqliteCorpusIndex } from "./sqlite/corpus-index-reads.ts";
import type { CorpusPassage } from "./types.ts";

type Awaitable<T> = T | Promise<T>;

/** The collections' reads a search makes: the index, and a document's best passages. */
export interface CorpusReader {
  index: CorpusIndex;
  bestPassages(documentId: number, words: string[], limit: number): Awaitable<CorpusPassage[]>;
  close(): void;
}

/**
 * A connection of its own for searching, read-only: in WAL mode it reads beside the server's
 * writer without blocking it, and sees each commit of the writer as a new `data_version` — so
 * the reader's index snapshot starts over after every write, as the server's own would.
 */
export function openCorpusReader(source: CorpusReaderSource): CorpusReader {
  const db = new Database(source.path, { readonly: true, strict: true });
  db.exec("PRAGMA busy_timeout = 5000;");
  const index = sqliteCorpusIndex(db);
  // Only the reads are used; the writes it prepares would be refused by the read-only connection.
  const corpus = sqliteCorpus(db, () => {});
  return { index, bestPassages: corpus.bestPassages, close: () => db.close() };
}
