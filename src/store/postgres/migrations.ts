// As for SQLite (src/store/sqlite/migrations.ts): imported as text so the compiled binary
// carries them; drizzle's folder migrator would read files that aren't there.
import m0000 from "../../../db/pg/0000_init.sql" with { type: "text" };
import m0001 from "../../../db/pg/0001_corpus_text_search.sql" with { type: "text" };
import m0002 from "../../../db/pg/0002_collection_owners.sql" with { type: "text" };
import m0003 from "../../../db/pg/0003_corpus_uploads.sql" with { type: "text" };
import m0004 from "../../../db/pg/0004_corpus_title_cuts.sql" with { type: "text" };
import m0005 from "../../../db/pg/0005_email_proof.sql" with { type: "text" };
import m0006 from "../../../db/pg/0006_run_verification.sql" with { type: "text" };
import m0007 from "../../../db/pg/0007_run_acceptance.sql" with { type: "text" };
import m0008 from "../../../db/pg/0008_corpus_terms_by_collection.sql" with { type: "text" };
import m0009 from "../../../db/pg/0009_run_retention.sql" with { type: "text" };
import m0010 from "../../../db/pg/0010_audit_events.sql" with { type: "text" };
import journal from "../../../db/pg/meta/_journal.json";

/** Migrations in journal order. A test checks every db/pg/*.sql file is listed here. */
export const pgMigrations: { tag: string; sql: string }[] = [
  { tag: "0000_init", sql: m0000 },
  { tag: "0001_corpus_text_search", sql: m0001 },
  { tag: "0002_collection_owners", sql: m0002 },
  { tag: "0003_corpus_uploads", sql: m0003 },
  { tag: "0004_corpus_title_cuts", sql: m0004 },
  { tag: "0005_email_proof", sql: m0005 },
  { tag: "0006_run_verification", sql: m0006 },
  { tag: "0007_run_acceptance", sql: m0007 },
  { tag: "0008_corpus_terms_by_collection", sql: m0008 },
  { tag: "0009_run_retention", sql: m0009 },
  { tag: "0010_audit_events", sql: m0010 },
];

export const pgJournalTags: string[] = journal.entries.map((e) => e.tag);
