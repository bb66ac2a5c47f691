import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import type { SqliteStore } from "../sqlite/open.ts";
import { CORPUS, type CopyReport, PLAIN } from "./copy-from-sqlite.ts";

const BATCH = 500;

/**
 * Copies a PostgreSQL database into a new, migrated SQLite one (`db copy --to FILE` with
 * DATABASE_URL set): a backup that `db restore` can put back, or a way back to one server. Read
 * from one REPEATABLE READ snapshot while the instances keep writing, through server-side cursors
 * (a large table is never held in memory whole), written in one SQLite transaction, and every
 * table's rows counted on both sides before the commit. The tables of `copy-from-sqlite.ts`,
 * column for column where both schemas have the column; documents through the SQLite store's
 * own import, which writes its search index.
 */
export async function copyToSqlite(src: SQL, dst: SqliteStore): Promise<CopyReport> {
  const db = dst.raw;
  return await src.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const table of PLAIN) {
        const columns = sqliteColumns(db, table);
        const insert = (row: Record<string, unknown>) => {
          const cols = columns.filter((c) => c in row);
          db.query(
            `INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
          ).run(...(cols.map((c) => row[c]) as never[]));
        };
        for await (const rows of cursor(tx, `SELECT * FROM ${table}`)) for (const r of rows) insert(r);
      }
      await copyDocuments(tx, dst);
      const report: CopyReport = [];
      for (const table of [...PLAIN, ...CORPUS]) {
        const [{ n }] = await tx.unsafe(`SELECT count(*)::int AS n FROM ${table}`);
        const rows = (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
        if (rows !== n) throw new Error(`${table}: ${n} rows in PostgreSQL, ${rows} copied`);
        report.push({ table, rows });
      }
      db.exec("COMMIT");
      return report;
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  });
}

/** The columns of a table on SQLite: PostgreSQL's own (a run's `seq`, the search vectors) are left out. */
function sqliteColumns(db: Database, table: string): string[] {
  return (db.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

/** A query's rows in batches through a cursor of the snapshot's transaction. */
async function* cursor(tx: SQL, query: string): AsyncGenerator<Record<string, unknown>[]> {
  const name = `rq_copy_${Math.random().toString(36).slice(2)}`;
  await tx.unsafe(`DECLARE ${name} NO SCROLL CURSOR FOR ${query}`);
  for (;;) {
    const rows = (await tx.unsafe(`FETCH ${BATCH} FROM ${name}`)) as Record<string, unknown>[];
    if (!rows.length) break;
    yield [...rows];
  }
  await tx.unsafe(`CLOSE ${name}`);
}

/** Each collection's documents with their passages, written and indexed as an import would; their dates kept. */
async function copyDocuments(tx: SQL, dst: SqliteStore): Promise<void> {
  const dated = dst.raw.prepare("UPDATE corpus_documents SET added_at = ? WHERE collection_id = ? AND doc_id = ?");
  for await (const docs of cursor(tx, "SELECT * FROM corpus_documents ORDER BY collection_id, id")) {
    const ids = docs.map((d) => d.id);
    const passages = (await tx`SELECT document_id, text FROM corpus_passages
      WHERE document_id IN ${tx(ids as number[])} ORDER BY document_id, seq`) as {
      document_id: unknown;
      text: string;
    }[];
    const byDoc = new Map<string, string[]>();
    for (const p of passages) {
      const key = String(p.document_id);
      byDoc.set(key, [...(byDoc.get(key) ?? []), p.text]);
    }
    const byCollection = new Map<number, Record<string, unknown>[]>();
    for (const d of docs) {
      const cid = Number(d.collection_id);
      byCollection.set(cid, [...(byCollection.get(cid) ?? []), d]);
    }
    for (const [cid, list] of byCollection) {
      await dst.corpus.put(
        cid,
        list.map((d) => ({
          docId: String(d.doc_id),
          title: String(d.title),
          url: (d.url as string | null) ?? null,
          path: (d.path as string | null) ?? null,
          format: String(d.format),
          contentHash: String(d.content_hash),
          truncated: Boolean(Number(d.truncated)),
          passages: byDoc.get(String(d.id)) ?? [],
        })),
      );
      for (const d of list) dated.run(String(d.added_at), cid, String(d.doc_id));
    }
  }
}
