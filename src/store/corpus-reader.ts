import { Database } from "bun:sqlite";
import { SQL } from "bun";
import type { CorpusIndex, CorpusReaderSource } from "./corpus-index.ts";
import { pgCorpus } from "./postgres/corpus.ts";
import { pgCorpusIndex } from "./postgres/corpus-index-reads.ts";
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
 * A connection of its own for searching. SQLite: read-only; in WAL mode it reads beside the
 * server's writer without blocking it, and sees each commit of the writer as a new
 * `data_version` — so the reader's index snapshot starts over after every write, as the
 * server's own would. PostgreSQL: one connection (the thread runs one search at a time); the
 * collections' versions tell it of every write, whichever instance made it.
 */
export function openCorpusReader(source: CorpusReaderSource): CorpusReader {
  if (source.backend === "postgres") {
    const sql = new SQL(source.url, { max: 1, prepare: source.prepare, connectionTimeout: 10, idleTimeout: 60 });
    return { index: pgCorpusIndex(sql), bestPassages: pgCorpus(sql).bestPassages, close: () => void sql.close() };
  }
  const db = new Database(source.path, { readonly: true, strict: true });
  db.exec("PRAGMA busy_timeout = 5000;");
  // Only the reads are used; the writes it prepares would be refused by the read-only connection.
  const corpus = sqliteCorpus(
    db,
    () => {},
    () => {
      throw new Error("a search thread writes no audit entry");
    },
  );
  return { index: sqliteCorpusIndex(db), bestPassages: corpus.bestPassages, close: () => db.close() };
}
