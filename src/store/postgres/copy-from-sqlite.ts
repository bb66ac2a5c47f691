import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { storable } from "../../contract/storable-text.ts";
import { insertDocuments } from "./corpus-index.ts";

/**
 * Tables copied column for column (the two schemas mirror each other), parents before
 * children. Leases (`instances`) are not copied: they belong to running processes, and the
 * runs a stopped SQLite server left `running` are marked interrupted by the first instance
 * on PostgreSQL, as they would be on SQLite. Files on their way into a collection
 * (`corpus_uploads`) are copied as they stand: the first instance that finds their spooled
 * files (the same UPLOAD_DIR) imports them, any other marks them failed (upload them again).
 */
export const PLAIN = [
  "accounts",
  "sessions",
  "api_keys",
  "identities",
  "email_confirmations",
  "settings",
  "runs",
  "run_counters",
  "run_tallies",
  "run_events",
  "idempotency_keys",
  "corpus_collections",
  "corpus_uploads",
  "audit_events",
] as const;
/** Collections' documents and passages get their full-text vectors written with them. */
export const CORPUS = ["corpus_documents", "corpus_passages"] as const;
/** Tables only PostgreSQL has (written by running instances): part of the empty-target check, not copied. */
const POSTGRES_ONLY = ["instances", "login_attempts", "signup_buckets", "run_stream", "corpus_terms"] as const;
/** Every table of the service on PostgreSQL but the migrations' own record (copy-target.ts). */
export const SERVICE_TABLES: readonly string[] = [...PLAIN, ...CORPUS, ...POSTGRES_ONLY];
/** Identity columns whose sequences must continue after the copied ids. */
const SEQUENCES = [
  ["run_events", "id"],
  ["corpus_collections", "id"],
  ["corpus_documents", "id"],
  ["corpus_passages", "id"],
  ["corpus_uploads", "id"],
  ["audit_events", "id"],
] as const;

const BATCH = 500;

/** Rows per table; `cleaned`: how many of them held NUL or unpaired surrogates, copied as U+FFFD. */
export type CopyReport = { table: string; rows: number; cleaned?: number }[];

/** Rows in each of the service's tables on the PostgreSQL side (the empty-target check). */
export async function postgresRowCounts(dst: SQL): Promise<CopyReport> {
  const out: CopyReport = [];
  for (const table of SERVICE_TABLES)
    out.push({ table, rows: Number((await dst.unsafe(`SELECT count(*)::int AS n FROM ${table}`))[0].n) });
  return out;
}

/**
 * Copies a SQLite database (migrated to the latest schema) into an empty PostgreSQL one, in
 * one PostgreSQL transaction read from one SQLite snapshot: all of it or nothing. Before the
 * commit every table's row count is compared with the source's; a difference rolls it back.
 * Ids are kept (the rows refer to each other by them) and sequences continue after them.
 * Text PostgreSQL cannot hold (SQLite took it: a question asked before the service refused
 * it, a NUL in a page) is copied with each NUL as U+FFFD and counted, never failing the copy;
 * nothing is dropped, so no two names become one (docs/decisions/0100-text-a-database-cannot-hold.md).
 */
export async function copyFromSqlite(src: Database, dst: SQL): Promise<CopyReport> {
  const cleaned = new Map<string, number>();
  src.exec("BEGIN"); // a read snapshot: a server writing meanwhile does not tear the copy
  try {
    return await dst.begin(async (tx) => {
      for (const table of PLAIN) {
        for (const rows of batches(src, `SELECT * FROM ${table} ORDER BY rowid`, table, cleaned)) {
          const cols = Object.keys(rows[0]!)
            .map((c) => `"${c}"`)
            .join(", ");
          await tx.unsafe(
            `INSERT INTO ${table} (${cols}) OVERRIDING SYSTEM VALUE
             SELECT ${cols} FROM jsonb_populate_recordset(NULL::${table}, $1::text::jsonb)`,
            [JSON.stringify(rows)],
          );
        }
      }
      await copyCorpus(src, tx, cleaned);
      for (const [table, col] of SEQUENCES)
        await tx.unsafe(
          `SELECT setval(pg_get_serial_sequence('${table}', '${col}'), coalesce((SELECT max(${col}) FROM ${table}), 0) + 1, false)`,
        );
      const report: CopyReport = [];
      for (const { table, rows } of await postgresRowCounts(tx)) {
        if ((POSTGRES_ONLY as readonly string[]).includes(table)) continue;
        const expected = (src.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
        if (rows !== expected) throw new Error(`${table}: ${expected} rows in SQLite, ${rows} copied`);
        report.push({ table, rows, cleaned: cleaned.get(table) ?? 0 });
      }
      return report;
    });
  } finally {
    src.exec("COMMIT");
  }
}

/** Documents with their ids and passages, indexed as `corpus.put` would (new passage ids: nothing refers to them). */
async function copyCorpus(src: Database, tx: SQL, cleaned: Map<string, number>): Promise<void> {
  const passages = src.prepare<{ text: string }, [number]>(
    "SELECT text FROM corpus_passages WHERE document_id = ? ORDER BY seq",
  );
  const passagesOf = (id: number) => cleanRows(passages.all(id), "corpus_passages", cleaned).map((p) => p.text);
  for (const docs of batches(src, "SELECT * FROM corpus_documents ORDER BY id", "corpus_documents", cleaned)) {
    const rows = docs as Record<string, string | number | null>[];
    await insertDocuments(
      tx,
      rows.map((d) => ({
        id: d.id as number,
        collectionId: d.collection_id as number,
        docId: d.doc_id as string,
        title: d.title as string,
        url: d.url as string | null,
        path: d.path as string | null,
        format: d.format as string,
        contentHash: d.content_hash as string,
        chars: d.chars as number,
        bytes: d.bytes as number,
        truncated: d.truncated as number,
        addedAt: d.added_at as string,
        passages: passagesOf(d.id as number),
      })),
    );
  }
}

/** The rows of a query in batches, so a large database is never held in memory whole; cleaned, counted in `cleaned`. */
function* batches(
  src: Database,
  query: string,
  table: string,
  cleaned: Map<string, number>,
): Generator<Record<string, unknown>[]> {
  let batch: Record<string, unknown>[] = [];
  for (const row of src.query(query).iterate() as IterableIterator<Record<string, unknown>>) {
    batch.push(row);
    if (batch.length === BATCH) {
      yield cleanRows(batch, table, cleaned);
      batch = [];
    }
  }
  if (batch.length) yield cleanRows(batch, table, cleaned);
}

/** Rows with NUL as U+FFFD (and unpaired surrogates, which SQLite already stores so); counts the rows that changed. */
function cleanRows<R extends object>(rows: R[], table: string, cleaned: Map<string, number>): R[] {
  const out = rows.map((r) => storable(r, "\ufffd"));
  const changed = out.filter((r, i) => r !== rows[i]).length;
  if (changed) cleaned.set(table, (cleaned.get(table) ?? 0) + changed);
  return out;
}
