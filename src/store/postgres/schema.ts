import { sql } from "drizzle-orm";
import {
  bigint,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The PostgreSQL schema: the tables of src/store/sqlite/schema.ts, column for column, so a
 * SQLite database copies over as it is (collections bring their own full-text index in
 * place of FTS5's). Timestamps stay ISO 8601 UTC text (their text order
 * is time order, and both backends answer the same strings) except the leases, which are
 * judged by the database's own clock. What SQLite gets from rowid — insertion order to
 * break ties between equal timestamps — is an identity column here (`seq`).
 */

/** Passages carry their own full-text vector: the best passages of a hit are found with @@ and ts_rank. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    plan: text("plan", { enum: ["free", "pro", "researcher"] }).notNull(),
    createdAt: text("created_at").notNull(),
    /**
     * Whether the address is proved (docs/decisions/0091-pre-registration-takeover.md):
     * proven (a confirmed link, a verified identity, the CLI), unproven (typed at sign-up),
     * pending (typed at sign-up, a confirmation link on its way; cannot sign in).
     */
    emailStatus: text("email_status", { enum: ["proven", "unproven", "pending"] })
      .notNull()
      .default("unproven"),
  },
  (t) => [uniqueIndex("accounts_email_uq").on(t.email)],
);

/** Links sent to confirm an address: single-use, expiring, only the SHA-256 of the token kept. */
export const emailConfirmations = pgTable(
  "email_confirmations",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("email_confirmations_account_idx").on(t.accountId, t.createdAt)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [uniqueIndex("sessions_token_uq").on(t.tokenHash), index("sessions_account_idx").on(t.accountId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name"),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    status: text("status", { enum: ["active", "revoked"] }).notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_account_idx").on(t.accountId)],
);

export const runs = pgTable(
  "runs",
  {
    id: text("id").primaryKey(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    keyId: text("key_id"),
    keyPrefix: text("key_prefix"),
    origin: text("origin", { enum: ["api", "app", "cli"] }).notNull(),
    endpoint: text("endpoint").notNull(),
    query: text("query").notNull(),
    period: text("period").notNull(),
    status: text("status", { enum: ["running", "ok", "error"] }).notNull(),
    writer: text("writer"),
    answer: text("answer"),
    /** JSON text, as on SQLite */
    sources: text("sources"),
    errors: text("errors"),
    verification: text("verification"),
    tokensIn: integer("tokens_in").notNull().default(0),
    tokensOut: integer("tokens_out").notNull().default(0),
    latencyMs: integer("latency_ms"),
    createdAt: text("created_at").notNull(),
    finishedAt: text("finished_at"),
    instanceId: text("instance_id"),
  },
  (t) => [
    index("runs_account_period_idx").on(t.accountId, t.period),
    index("runs_account_created_idx").on(t.accountId, t.createdAt),
    index("runs_status_idx").on(t.status),
    // The retention sweep takes the oldest runs first (src/runs/retention/).
    index("runs_created_idx").on(t.createdAt),
  ],
);

/** Runs the retention sweep deleted, per account and day, as on SQLite. */
export const runTallies = pgTable(
  "run_tallies",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    date: text("date").notNull(),
    period: text("period").notNull(),
    calls: integer("calls").notNull().default(0),
    ok: integer("ok").notNull().default(0),
    error: integer("error").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.date] })],
);

export const runCounters = pgTable(
  "run_counters",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    runs: integer("runs").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.period] })],
);

export const runEvents = pgTable(
  "run_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    atMs: integer("at_ms").notNull(),
    type: text("type").notNull(),
    data: text("data").notNull(),
  },
  (t) => [index("run_events_run_idx").on(t.runId)],
);

/**
 * A running run's stream events as they are sent (src/store/postgres/run-stream.ts), so an
 * instance other than the one running it can follow it live; deleted when the run finishes
 * and its timeline is stored.
 */
export const runStream = pgTable(
  "run_stream",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    /** the StreamEvent as JSON text */
    event: text("event").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const identities = pgTable(
  "identities",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    email: text("email"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("identities_issuer_subject_uq").on(t.issuer, t.subject),
    index("identities_account_idx").on(t.accountId),
  ],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    queryHash: text("query_hash").notNull(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/** Leases on the database's clock: instances on hosts whose clocks differ still agree. */
export const instances = pgTable("instances", {
  id: text("id").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** `version` goes up with every write to the collection: instances' ranking caches follow it. */
export const corpusCollections = pgTable(
  "corpus_collections",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    createdAt: text("created_at").notNull(),
    version: bigint("version", { mode: "number" }).notNull().default(0),
    /** as on SQLite (src/store/sqlite/schema.ts): the owner, null for an unowned shared collection */
    ownerId: text("owner_id").references(() => accounts.id, { onDelete: "cascade" }),
    visibility: text("visibility", { enum: ["private", "shared"] })
      .notNull()
      .default("shared"),
  },
  (t) => [uniqueIndex("corpus_collections_owner_name_uq").on(sql`coalesce(${t.ownerId}, '')`, t.name)],
);

/** `title_len` and `body_len`: the fields' lengths in index terms, for BM25F (src/corpus/search, through corpus-index-reads.ts). */
export const corpusDocuments = pgTable(
  "corpus_documents",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    collectionId: integer("collection_id")
      .notNull()
      .references(() => corpusCollections.id, { onDelete: "cascade" }),
    docId: text("doc_id").notNull(),
    title: text("title").notNull(),
    url: text("url"),
    path: text("path"),
    format: text("format").notNull(),
    contentHash: text("content_hash").notNull(),
    chars: integer("chars").notNull(),
    truncated: integer("truncated").notNull().default(0),
    addedAt: text("added_at").notNull(),
    bytes: integer("bytes").notNull().default(0),
    titleLen: integer("title_len").notNull(),
    bodyLen: integer("body_len").notNull(),
  },
  (t) => [uniqueIndex("corpus_documents_doc_uq").on(t.collectionId, t.docId)],
);

/**
 * The documents' inverted index: each term (PostgreSQL's own parsing and stemming,
 * to_tsvector) with its count in the title and in the body. A GIN index on a tsvector finds
 * documents but cannot give those counts, which BM25F needs; the index on (collection, term, …)
 * answers a term's postings in the searched collections from the index alone, never reading
 * another collection's (db/pg/0008_corpus_terms_by_collection.sql).
 */
export const corpusTerms = pgTable(
  "corpus_terms",
  {
    documentId: integer("document_id")
      .notNull()
      .references(() => corpusDocuments.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
    titleTf: integer("title_tf").notNull(),
    bodyTf: integer("body_tf").notNull(),
    /** the document's collection, so a search's reads stay within the collections it searches */
    collectionId: integer("collection_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.term] }),
    index("corpus_terms_collection_term_idx").on(t.collectionId, t.term, t.documentId, t.titleTf, t.bodyTf),
  ],
);

export const corpusPassages = pgTable(
  "corpus_passages",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    documentId: integer("document_id")
      .notNull()
      .references(() => corpusDocuments.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    text: text("text").notNull(),
    search: tsvector("search").notNull(),
  },
  (t) => [index("corpus_passages_doc_idx").on(t.documentId, t.seq)],
);

/**
 * Sign-in attempt counters (src/auth/attempts.ts), shared by every instance so that spreading
 * guesses over them buys nothing; on SQLite they live in the process's memory. Times are
 * epoch ms, as the rules compute them.
 */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull(),
    pending: integer("pending").notNull(),
    blockedUntil: bigint("blocked_until", { mode: "number" }).notNull(),
    lastAt: bigint("last_at", { mode: "number" }).notNull(),
  },
  (t) => [index("login_attempts_last_idx").on(t.lastAt)],
);

/** Sign-up token buckets per client address (src/auth/signup-limits.ts), shared like the sign-in counters. */
export const signupBuckets = pgTable(
  "signup_buckets",
  {
    client: text("client").primaryKey(),
    tokens: doublePrecision("tokens").notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [index("signup_buckets_at_idx").on(t.at)],
);

/** Uploaded files on their way in, as on SQLite (src/store/sqlite/schema.ts). */
export const corpusUploads = pgTable(
  "corpus_uploads",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    collectionId: integer("collection_id")
      .notNull()
      .references(() => corpusCollections.id, { onDelete: "cascade" }),
    docId: text("doc_id").notNull(),
    format: text("format").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    spool: text("spool"),
    instanceId: text("instance_id"),
    status: text("status", { enum: ["queued", "indexing", "failed"] }).notNull(),
    error: text("error"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("corpus_uploads_doc_idx").on(t.collectionId, t.docId),
    index("corpus_uploads_status_idx").on(t.status, t.instanceId),
  ],
);

/** The audit trail, as on SQLite (src/store/sqlite/schema.ts). */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    at: text("at").notNull(),
    action: text("action").notNull(),
    actorId: text("actor_id"),
    actor: text("actor"),
    targetId: text("target_id"),
    target: text("target"),
    ip: text("ip"),
    detail: text("detail"),
    cut: integer("cut").notNull().default(0),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at),
    index("audit_events_actor_idx").on(t.actorId, t.id),
    index("audit_events_target_idx").on(t.targetId, t.id),
    index("audit_events_failed_ip_idx").on(t.action, t.ip, t.at),
    index("audit_events_failed_target_idx").on(t.action, t.target, t.at),
  ],
);
