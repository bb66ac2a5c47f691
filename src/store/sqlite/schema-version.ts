import type { Database } from "bun:sqlite";
import { migrations } from "./migrations.ts";

/** The newest migration this binary knows: what a backup of its database is at, at most. */
export const KNOWN_SCHEMA = migrations.at(-1)!.tag;

/** A migration's number: "0012" of "0012_corpus_terms". */
export const schemaNumber = (tag: string): string => tag.split("_")[0]!;

/**
 * What a database file says of its schema, from the migrations table every backup carries:
 * its newest migration, and those this binary does not know (a file from a newer release).
 * Null when the file has no migrations table: not a research-query database.
 */
export function schemaOf(db: Database): { newest: string; unknown: string[] } | null {
  const table = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__migrations'").get();
  if (!table) return null;
  const tags = db
    .query<{ tag: string }, []>("SELECT tag FROM __migrations ORDER BY tag")
    .all()
    .map((r) => r.tag);
  const known = new Set(migrations.map((m) => m.tag));
  return { newest: tags.at(-1) ?? "", unknown: tags.filter((t) => !known.has(t)) };
}
