import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Timestamps are ISO 8601 UTC strings; months are "YYYY-MM" in UTC. */
export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** null for accounts created through the identity provider only */
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
export const emailConfirmations = sqliteTable(
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

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** SHA-256 of the cookie token: a leaked database does not leak live sessions */
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [uniqueIndex("sessions_token_uq").on(t.tokenHash), index("sessions_account_idx").on(t.accountId)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
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

export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    keyId: text("key_id"),
    keyPrefix: text("key_prefix"),
    origin: text("origin", { enum: ["api", "app", "cli"] }).notNull(),
    endpoint: text("endpoint").notNull(),
    query: text("query").notNull(),
    /** allowance month the run counts against */
    period: text("period").notNull(),
    status: text("status", { enum: ["running", "ok", "error"] }).notNull(),
    writer: text("writer"),
    answer: text("answer"),
    sources: text("sources", { mode: "json" }).$type<unknown[]>(),
    errors: text("errors", { mode: "json" }).$type<{ code: string; message: string }[]>(),
    /** the claim check's counts (JSON), on completed runs */
    verification: text("verification", { mode: "json" }),
    tokensIn: integer("tokens_in").notNull().default(0),
    tokensOut: integer("tokens_out").notNull().default(0),
    latencyMs: integer("latency_ms"),
    createdAt: text("created_at").notNull(),
    finishedAt: text("finished_at"),
    /** the server instance running it (table `instances`); null on rows from before leases */
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

/**
 * Runs the retention sweep deleted, counted per account and day as the Console's usage counts
 * them, so its per-day counts and totals stay exact once the rows are gone.
 */
export const runTallies = sqliteTable(
  "run_tallies",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** UTC day "YYYY-MM-DD" the runs were created on */
    date: text("date").notNull(),
    /** allowance month, as on the runs */
    period: text("period").notNull(),
    calls: integer("calls").notNull().default(0),
    ok: integer("ok").notNull().default(0),
    error: integer("error").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.date] })],
);

/**
 * Runs counted against an account's allowance, per month. Acceptance reads and bumps one
 * row instead of counting the month's runs, which grew with every run (O(n) per call).
 */
export const runCounters = sqliteTable(
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

export const runEvents = sqliteTable(
  "run_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    atMs: integer("at_ms").notNull(),
    type: text("type").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("run_events_run_idx").on(t.runId)],
);

/** Server-wide settings, e.g. the generated session secret. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** Accounts linked to an identity provider, by (issuer, subject). */
export const identities = sqliteTable(
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

/**
 * Idempotency keys (README "Safe retries"): an account's key names the run it started for
 * 24 hours; `query_hash` tells a retry from a reuse with another question.
 */
export const idempotencyKeys = sqliteTable(
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

/**
 * Server instances on this database and their leases (README "Instances on one database"):
 * each renews its row while it is up; a run `running` under an instance whose lease has
 * expired, or under none, is `interrupted` by any live instance. No foreign key from runs:
 * expired rows are deleted while their runs stay.
 */
export const instances = sqliteTable("instances", {
  id: text("id").primaryKey(),
  startedAt: text("started_at").notNull(),
  expiresAt: text("expires_at").notNull(),
});

/**
 * Collections of the operator's own documents (README "Collections"): searched in runs
 * beside the web. A document is identified in its collection by `doc_id` (a JSONL record's
 * id, or a file's path relative to the folder it was added from); `content_hash` makes
 * re-adding an unchanged document a no-op. Its text is kept as passages, the unit the
 * rank stage reads; the full-text indexes live in db/0006_corpus_fts.sql (drizzle-kit has
 * no virtual tables).
 */
export const corpusCollections = sqliteTable(
  "corpus_collections",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    createdAt: text("created_at").notNull(),
    /** the account whose collection it is; null for one the operator shares with no owner */
    ownerId: text("owner_id").references(() => accounts.id, { onDelete: "cascade" }),
    /** `private`: the owner's runs only; `shared`: every account's (collections made before owners existed) */
    visibility: text("visibility", { enum: ["private", "shared"] })
      .notNull()
      .default("shared"),
  },
  // Names are unique per owner; the unowned ones among themselves (NULLs are distinct in a plain unique index).
  (t) => [uniqueIndex("corpus_collections_owner_name_uq").on(sql`coalesce(${t.ownerId}, '')`, t.name)],
);

export const corpusDocuments = sqliteTable(
  "corpus_documents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    collectionId: integer("collection_id")
      .notNull()
      .references(() => corpusCollections.id, { onDelete: "cascade" }),
    docId: text("doc_id").notNull(),
    title: text("title").notNull(),
    /** the document's own address (a JSONL record's `url`), when it has one */
    url: text("url"),
    /** where it was read from, for the list and the Console */
    path: text("path"),
    format: text("format").notNull(),
    contentHash: text("content_hash").notNull(),
    /** characters kept (after the per-document cap) */
    chars: integer("chars").notNull(),
    /** 1 when the text was cut at the per-document cap */
    truncated: integer("truncated").notNull().default(0),
    addedAt: text("added_at").notNull(),
    /** UTF-8 bytes of the kept text: what the storage allowance counts */
    bytes: integer("bytes").notNull().default(0),
    /** the title's and the text's lengths in index terms, for BM25F (src/store/sqlite/corpus-postings.ts writes them) */
    titleLen: integer("title_len").notNull().default(0),
    bodyLen: integer("body_len").notNull().default(0),
  },
  (t) => [uniqueIndex("corpus_documents_doc_uq").on(t.collectionId, t.docId)],
);

export const corpusPassages = sqliteTable(
  "corpus_passages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    documentId: integer("document_id")
      .notNull()
      .references(() => corpusDocuments.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    text: text("text").notNull(),
  },
  (t) => [index("corpus_passages_doc_idx").on(t.documentId, t.seq)],
);

/**
 * Files uploaded to a collection on their way in (README "Collections for a team"): each waits
 * in the spool folder (UPLOAD_DIR/`spool`) of the instance that received it (`instance_id`),
 * which imports it; `queued`, then `indexing`, then the row goes (its documents are stored)
 * or stays `failed` with the reason (and no file). An instance whose lease lapses leaves its
 * rows to whichever instance finds their files (docs/decisions/0081-uploads-imported-in-the-background.md).
 */
export const corpusUploads = sqliteTable(
  "corpus_uploads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    collectionId: integer("collection_id")
      .notNull()
      .references(() => corpusCollections.id, { onDelete: "cascade" }),
    /** the file's name: its document's doc_id (a JSONL file's records keep their own ids) */
    docId: text("doc_id").notNull(),
    format: text("format").notNull(),
    /** the file's size as uploaded: what it holds of the storage allowance until imported */
    bytes: integer("bytes").notNull(),
    /** its folder under UPLOAD_DIR; null once failed (the file is gone) */
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

/**
 * The audit trail (README "The audit trail"): who did what, written in the transaction of the
 * change it records. Actor and target are kept as ids (an account's, for the Console's reading)
 * and labels (its address, a key's prefix, a collection's name); never a secret or document text.
 * `cut`: failed sign-ins not written one by one once a client or an address reached its bound.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
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
