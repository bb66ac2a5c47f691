import type { Database } from "bun:sqlite";

/**
 * The collections' tokenizer, as db/0006_corpus_fts.sql declared it for the index that
 * corpus_terms_fts replaced: documents and queries (corpus-analyzer.ts) are split by it alike.
 */
export const INDEX_TOKENIZER = "'porter unicode61 remove_diacritics 2'";

/**
 * A contentless FTS5 table `temp.<name>` with the index's tokenizer and its fts5vocab
 * `temp.<name>_terms` (one row per occurrence): text put in it is split exactly as the index
 * splits documents, and read back term by term. Created once per connection.
 */
export function tempTokenizer(db: Database, name: string, columns: string[], o: { deletes?: boolean } = {}): void {
  const deletes = o.deletes ? ", contentless_delete=1" : "";
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5(${columns.join(", ")}, content=''${deletes}, tokenize=${INDEX_TOKENIZER})`,
  );
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name}_terms USING fts5vocab(temp, ${name}, 'instance')`);
}
