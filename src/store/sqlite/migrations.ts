// drizzle's folder migrator reads files at run time, which a compiled binary can't;
// the SQL is imported as text so `bun build --compile` embeds it.
import m0000 from "../../../db/0000_init.sql" with { type: "text" };
import m0001 from "../../../db/0001_identities.sql" with { type: "text" };
import m0002 from "../../../db/0002_run_counters.sql" with { type: "text" };
import m0003 from "../../../db/0003_idempotency_keys.sql" with { type: "text" };
import m0004 from "../../../db/0004_instance_leases.sql" with { type: "text" };
import m0005 from "../../../db/0005_corpus.sql" with { type: "text" };
import m0006 from "../../../db/0006_corpus_fts.sql" with { type: "text" };
import m0007 from "../../../db/0007_collection_owners.sql" with { type: "text" };
import m0008 from "../../../db/0008_corpus_uploads.sql" with { type: "text" };
import m0009 from "../../../db/0009_corpus_title_cuts.sql" with { type: "text" };
import m0010 from "../../../db/0010_email_proof.sql" with { type: "text" };
import m0011 from "../../../db/0011_run_verification.sql" with { type: "text" };
import m0012 from "../../../db/0012_corpus_terms.sql" with { type: "text" };
import m0013 from "../../../db/0013_run_retention.sql" with { type: "text" };
import m0014 from "../../../db/0014_audit_events.sql" with { type: "text" };
import journal from "../../../db/meta/_journal.json";

/** Migrations in journal order. A test checks every db/*.sql file is listed here. */
export const migrations: { tag: string; sql: string }[] = [
  { tag: "0000_init", sql: m0000 },
  { tag: "0001_identities", sql: m0001 },
  { tag: "0002_run_counters", sql: m0002 },
  { tag: "0003_idempotency_keys", sql: m0003 },
  { tag: "0004_instance_leases", sql: m0004 },
  { tag: "0005_corpus", sql: m0005 },
  { tag: "0006_corpus_fts", sql: m0006 },
  { tag: "0007_collection_owners", sql: m0007 },
  { tag: "0008_corpus_uploads", sql: m0008 },
  { tag: "0009_corpus_title_cuts", sql: m0009 },
  { tag: "0010_email_proof", sql: m0010 },
  { tag: "0011_run_verification", sql: m0011 },
  { tag: "0012_corpus_terms", sql: m0012 },
  { tag: "0013_run_retention", sql: m0013 },
  { tag: "0014_audit_events", sql: m0014 },
];

export const journalTags: string[] = journal.entries.map((e) => e.tag);
