import type { Plan } from "../contract/auth.ts";
import type { KeyStatus, Origin, RecentRun, RunStatus, UsageDay } from "../contract/console.ts";
import type { Source, Verification, Writer } from "../contract/envelope.ts";
import type { ErrorItem } from "../contract/errors.ts";
import type { CorpusDocumentRow, CorpusIndex, CorpusReaderSource } from "./corpus-index.ts";

export type { CorpusDocumentRow };

/**
 * The store: every table of the service behind functions named for what they do, one
 * module per table (src/store/<backend>/<table>.ts). SQLite answers synchronously, a
 * network database would not: results are `Awaitable`, so callers `await` them, except on
 * the hot refusal path (keys.byHash), which checks for a promise and stays synchronous
 * when the backend is. docs/architecture.md "Recipes": a store backend.
 */
export type Awaitable<T> = T | Promise<T>;

/**
 * Whether an account's address is proved: proven (a confirmation link, a verified identity,
 * the CLI), unproven (typed at sign-up, no mail to confirm it), pending (typed at sign-up, a
 * confirmation link on its way: no sign-in until it is followed).
 */
export type EmailStatus = "proven" | "unproven" | "pending";

export interface AccountRow {
  id: string;
  email: string;
  passwordHash: string | null;
  plan: Plan;
  createdAt: string;
  emailStatus: EmailStatus;
}

export interface AccountsTable {
  byId(id: string): Awaitable<AccountRow | null>;
  /** `email` already normalised (trimmed, lower-cased). */
  byEmail(email: string): Awaitable<AccountRow | null>;
  /** False when the email is taken. */
  insert(row: AccountRow, audit?: AuditNote): Awaitable<boolean>;
  setPlan(email: string, plan: Plan): Awaitable<AccountRow | null>;
  /** Every account, oldest first (the CLI's `account list` and `account confirm --all-unproven`). */
  list(): Awaitable<AccountRow[]>;
  /** Marks the address proven (the CLI's `account confirm`); null when there is no such account. */
  setProven(email: string): Awaitable<AccountRow | null>;
  /**
   * Removes the account of `email` if it is still pending and was made before `before` (its
   * link lapsed, or its mail was never sent): the address is free to sign up again.
   */
  removePending(email: string, before: string): Awaitable<boolean>;
  /**
   * A new sign-up of an address still pending takes it back: the account gets this password
   * hash (its links die when the next one is inserted). Null when the address is not pending.
   */
  retakePending(email: string, passwordHash: string): Awaitable<AccountRow | null>;
  /**
   * A person leaves (README "When a person leaves"), in one transaction: the account and all
   * that is keyed by it go (sessions, keys, identities, links, runs with their events and
   * idempotency keys, usage counters, private collections with their documents and uploads in
   * flight); its shared collections are handed to no owner (renamed `NAME-ID` where the
   * operator has one of that name); every audit row naming it (id or address) names
   * `erase.pseudonym` instead, and `audit` is written. The spooled files of the uploads that
   * went (to delete), or null when there is no such account.
   */
  remove(accountId: string, erase: { email: string; pseudonym: string }, audit: AuditNote): Awaitable<string[] | null>;
}

export interface EmailConfirmationRow {
  /** SHA-256 of the token in the link: a leaked database confirms nothing. */
  tokenHash: string;
  accountId: string;
  createdAt: string;
  expiresAt: string;
}

export interface EmailConfirmationsTable {
  /** A new link; the account's older links die with it (only the newest link works). */
  insert(row: EmailConfirmationRow): Awaitable<void>;
  /** When the links sent to this account since `since` were made, newest first (dead ones too). */
  sentSince(accountId: string, since: string): Awaitable<string[]>;
  /** The account of a live token, or null; changes nothing (opening a link is not confirming). */
  live(tokenHash: string, now: string): Awaitable<string | null>;
  /**
   * Confirms by a link, in one transaction: a live token gives its account this password hash
   * (chosen by whoever holds the link, so by the mailbox's owner) and marks its address
   * proven; every token of that account is dropped (single use). The account id, or null for
   * an unknown or expired token.
   */
  take(tokenHash: string, now: string, passwordHash: string, audit?: AuditNote): Awaitable<string | null>;
}

export interface SessionRow {
  id: string;
  accountId: string;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * The credential a sign-in verified: the account's password hash as it was read, or the
 * identity (issuer, subject) linked to it.
 */
export type SessionProof = { passwordHash: string } | { issuer: string; subject: string };

export interface SessionsTable {
  /**
   * Inserts the session only while the account still has the credential verified, and sweeps
   * expired ones; false (nothing written) when it no longer has it. Threat: a sign-in checked
   * before a takeover (IdentitiesTable.link) or a new password and written after it. On a
   * server database the account's row is locked first, so a takeover committing meanwhile is
   * either seen, or sees the new session and ends it.
   */
  insert(row: SessionRow, proof: SessionProof, audit?: AuditNote): Awaitable<boolean>;
  accountIdByHash(tokenHash: string, now: string): Awaitable<string | null>;
  /** When a live session was made (its sign-in), or null. */
  createdAt(tokenHash: string, now: string): Awaitable<string | null>;
  /** The audit entry is written only when a session was ended. */
  deleteByHash(tokenHash: string, audit?: AuditNote): Awaitable<void>;
}

export interface KeyRow {
  id: string;
  accountId: string;
  name: string | null;
  prefix: string;
  keyHash: string;
  status: KeyStatus;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The columns the credential check needs, nothing else. */
export interface KeyCheck {
  id: string;
  accountId: string;
  prefix: string;
  status: string;
  lastUsedAt: string | null;
}

export interface ApiKeysTable {
  /** Inserts a key as it is, unchecked (tests and fixtures); a caller's new key goes through insertWithin. */
  insert(row: KeyRow): Awaitable<void>;
  /**
   * Inserts an active key unless the account already has `maxActive` active ones ("limit") or,
   * with `whileSession`, that session has ended since it was checked ("no_session"). The count
   * and the insert are one step per account, so concurrent creations cannot pass the cap.
   */
  insertWithin(
    row: KeyRow,
    maxActive: number,
    whileSession?: { tokenHash: string; now: string },
    audit?: AuditNote,
  ): Awaitable<"inserted" | "limit" | "no_session">;
  /** Newest first. */
  listByAccount(accountId: string): Awaitable<KeyRow[]>;
  /**
   * At most `limit` of the account's keys, newest first, from the key `from` on (itself
   * included; none when it is not one of the account's), or from the newest when null.
   */
  pageByAccount(accountId: string, from: string | null, limit: number): Awaitable<KeyRow[]>;
  /** Revokes an active key of this account; returns the key (revoked or not), or null if not its. */
  /** The audit entry is written only when an active key of the account was revoked. */
  revoke(accountId: string, keyId: string, at: string, audit?: AuditNote): Awaitable<KeyRow | null>;
  /** The account a key belongs to, or null if there is no such key (the CLI's `key revoke KEY_ID`). */
  accountOf(keyId: string): Awaitable<string | null>;
  /** The hot path: every call and every refusal. Synchronous on SQLite. */
  byHash(keyHash: string): Awaitable<KeyCheck | null>;
  touch(keyId: string, at: string): Awaitable<void>;
}

/** What the service records about a run at acceptance. */
export interface NewRun {
  id: string;
  accountId: string | null;
  keyId: string | null;
  keyPrefix: string | null;
  origin: Origin;
  endpoint: string;
  query: string;
  createdAt: Date;
  /** The instance whose lease keeps the run alive in the record (InstancesTable). */
  instanceId: string;
}

export interface RunOutcome {
  status: "ok" | "error";
  answer: string | null;
  sources: Source[];
  errors: ErrorItem[];
  writer: Writer | null;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  /** The claim check's counts, on a completed run (README "Claims you can check"). */
  verification?: Verification | null;
}

/** One timeline entry, kept in memory while the run works; `data.seq` is its stream event's sequence. */
export interface TimelineEvent {
  atMs: number;
  type: string;
  data: Record<string, unknown>;
}

/** An Idempotency-Key sent with a run (README "Safe retries"). */
export interface IdempotencyClaim {
  key: string;
  /** SHA-256 of the question: a retry asks the same one. */
  queryHash: string;
  /** Claims made before this are expired (24 hours). */
  since: Date;
}

/** Monthly research runs of each plan (README "Configuration": PLAN_RUNS_*); acceptance picks the account's. */
export type Allowances = Readonly<Record<Plan, number>>;

/**
 * How acceptance went: the run was recorded and counted; the allowance is used up; the
 * account's idempotency key already names a run (`sameQuery` false: the key was reused
 * for another question); or the caller is no longer good: the account is gone, or the key
 * was revoked since it was checked.
 */
export type Acceptance =
  | { accepted: true }
  | { accepted: false }
  | { accepted: false; existing: string; sameQuery: boolean }
  | { accepted: false; refused: "no_account" | "key_inactive" };

export interface RunRow {
  id: string;
  accountId: string | null;
  keyPrefix: string | null;
  origin: Origin;
  endpoint: string;
  query: string;
  status: RunStatus;
  writer: Writer | null;
  answer: string | null;
  sources: Source[];
  errors: ErrorItem[];
  /** Null on runs that failed or ended before the claim check existed. */
  verification: Verification | null;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number | null;
  createdAt: string;
  finishedAt: string | null;
}

export type { Plan, RecentRun };

export interface RunsTable {
  /**
   * Records the run and counts it against its account's plan's allowance in its month,
   * atomically: no burst of calls, in this process or another, can pass it. `allowances`
   * null: uncounted. The account must still exist and the run's key (if any) still be active.
   * With a claim, the key is checked and recorded in the same transaction, so any number
   * of concurrent retries start one run. Nothing is written unless `accepted` is true.
   * PostgreSQL makes it one round trip (docs/decisions/0111-acceptance-in-one-round-trip.md).
   */
  accept(run: NewRun, allowances: Allowances | null, claim?: IdempotencyClaim): Awaitable<Acceptance>;
  /** The outcome and the whole timeline in one commit. */
  finish(runId: string, outcome: RunOutcome, events: TimelineEvent[]): Awaitable<void>;
  /**
   * Runs `running` under no live lease — their instance's lease expired or was released, or
   * they name none (rows from before leases) — become errors with this item. A run of a
   * live instance is never touched, whichever instance asks.
   */
  markInterrupted(error: ErrorItem): Awaitable<number>;
  /** A run of this account with its events in order, or null. */
  withEvents(accountId: string, runId: string): Awaitable<{ run: RunRow; events: TimelineEvent[] } | null>;
  /** The month's runs per UTC day, those the retention sweep deleted included. */
  perDay(accountId: string, period: string): Awaitable<UsageDay[]>;
  /** At most `limit` of the account's runs, oldest first, after the run `after` (an export's pages). */
  pageByAccount(accountId: string, after: { createdAt: string; id: string } | null, limit: number): Awaitable<RunRow[]>;
  recent(accountId: string, limit: number): Awaitable<RecentRun[]>;
  /**
   * The retention sweep's batch: deletes up to `limit` ended runs created before `cutoff`,
   * oldest first, with everything keyed by them (events, idempotency claims, live stream rows),
   * and adds them to their account's per-day tallies in the same transaction, so usage counts
   * stay exact. A run that ended at or after `replayableSince`, or whose Idempotency-Key claim
   * was made then or later, is kept: it may still be replayed. Each run is deleted and counted
   * once, whichever instances sweep at the same time. Returns how many were deleted.
   */
  deleteRunsBefore(cutoff: Date, limit: number, replayableSince: Date): Awaitable<number>;
}

export interface RunCountersTable {
  /** Runs counted for the account in the month "YYYY-MM". */
  used(accountId: string, period: string): Awaitable<number>;
  /** Every month's count of the account, oldest first. */
  byAccount(accountId: string): Awaitable<{ period: string; runs: number }[]>;
  /** The account's plan and its runs counted in the month, read together; null without the account. */
  standing(accountId: string, period: string): Awaitable<{ plan: Plan; used: number } | null>;
}

export interface SettingsTable {
  /** The value under `key`, created with `make()` if absent; concurrent starts agree on one. */
  getOrCreate(key: string, make: () => string): Awaitable<string>;
}

export interface IdentityClaim {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
}

/** `replaced`: the account's address was unproven; its old credentials were revoked (IdentitiesTable.link). */
/**
 * `created`: a new account was made for the identity. With an `audit` note (its action unused),
 * `link` records `signup` for a new account and `account_taken_over` for a replaced one, the
 * account as actor, in its transaction.
 */
export type LinkOutcome =
  | { accountId: string; replaced?: boolean; created?: boolean }
  | { refused: "no_email" | "email_not_verified" };

export interface IdentitiesTable {
  /**
   * The account an identity signs in to, in one transaction: the one linked to (issuer,
   * subject); else the account with its email, linked only if the email is verified; else
   * a new account on `plan`, linked. No account is ever left without its link. Threat: an
   * account made with someone else's address before they arrive. When the account's address
   * is not proven, the verified identity takes it over: its password, sessions, API keys,
   * other identities and pending links are revoked, and the address counts as proven.
   */
  link(claim: IdentityClaim, plan: Plan, audit?: AuditNote): Awaitable<LinkOutcome>;
}

/**
 * Instance leases (README "Instances on one database"). Each server process holds one row
 * and renews it while it is up. Expiry is judged by the store's clock: the process's on
 * SQLite (one host), the database's own `now()` on a server database, so hosts whose
 * clocks differ still agree on which leases are live.
 */
export interface InstancesTable {
  /**
   * Takes or extends the lease until `leaseMs` from now. True when it was still held; false
   * on the first call, or when it had lapsed (its runs may already be `interrupted`).
   */
  renew(instanceId: string, leaseMs: number): Awaitable<boolean>;
  /** A clean shutdown, once its runs are settled: its lease ends now. */
  release(instanceId: string): Awaitable<void>;
  /** Deletes expired leases; `runs.markInterrupted` treats a missing lease as expired. */
  forgetExpired(): Awaitable<number>;
}

/** One stream event of a run in flight, as sent: `event` is the StreamEvent (src/contract/events.ts). */
export interface StreamedEvent {
  seq: number;
  event: unknown;
}

/**
 * A running run's stream events, written as they are sent, on a backend shared by instances on
 * several hosts: a resumed stream or a retry that reaches another instance follows the run live
 * from them (src/runs/instances/mirror.ts). A run's rows go when it finishes (its timeline holds them then).
 */
export interface RunStreamTable {
  /** Appends events in order; nothing once the run is no longer running. */
  append(runId: string, events: StreamedEvent[]): Promise<void>;
  /** The events after `seq`, in order. */
  after(runId: string, seq: number): Promise<StreamedEvent[]>;
}

/** A sign-in counter (src/auth/attempts.ts); times are epoch ms. */
export interface AttemptEntry {
  failures: number;
  /** Attempts reserved and not yet settled. */
  pending: number;
  blockedUntil: number;
  lastAt: number;
}

/**
 * Sign-in attempt counters kept in the database, on a backend shared by instances on several
 * hosts (on SQLite, one host, the process's memory serves).
 */
export interface LoginAttemptsTable {
  /**
   * In one transaction holding the keys' locks: `decide` sees their entries and returns what
   * to write back (null deletes). Entries idle since `forgetBefore` may be swept meanwhile.
   */
  update<T>(
    keys: string[],
    decide: (current: Map<string, AttemptEntry>) => { result: T; write: Map<string, AttemptEntry | null> },
    forgetBefore: number,
  ): Promise<T>;
}

/** A client's sign-up token bucket (src/auth/signup-limits.ts); `at` is epoch ms. */
export interface SignupBucket {
  tokens: number;
  at: number;
}

/** Sign-up buckets kept in the database, on a backend shared by instances on several hosts. */
export interface SignupBucketsTable {
  /**
   * In one transaction holding the client's lock: `decide` sees its bucket and returns the one
   * to keep (null: leave it). Buckets idle since `forgetBefore` may be swept meanwhile.
   */
  update<T>(
    client: string,
    decide: (current: SignupBucket | undefined) => { result: T; write: SignupBucket | null },
    forgetBefore: number,
  ): Promise<T>;
}

/** One document to keep in a collection (README "Collections"). */
export interface CorpusDocumentInput {
  /** A JSONL record's id, or the file's path relative to the folder it was added from. */
  docId: string;
  title: string;
  url: string | null;
  /** Where it was read from (a file's path as given), for the list and the Console. */
  path: string | null;
  /** "pdf" | "html" | "markdown" | "text" | "jsonl" */
  format: string;
  /** SHA-256 of what was read: an unchanged document is not written again. */
  contentHash: string;
  truncated: boolean;
  /** The kept text in passages, in order (src/text/passages.ts). */
  passages: string[];
}

export type CorpusPutOutcome = "added" | "replaced" | "unchanged";

export type Visibility = "private" | "shared";

/** Who owns a collection: an account's id, or null for one the operator shares with no owner. */
export type OwnerId = string | null;

/**
 * A collection's identity and who may read it, without its counts: what a route needs to find
 * the collection a name means, read in one indexed row whatever the collection holds.
 */
export interface CollectionRef {
  /** The store's own number for the collection: names are unique per owner only. */
  id: number;
  name: string;
  ownerId: OwnerId;
  /** The owner's email (null with no owner). */
  owner: string | null;
  visibility: Visibility;
  createdAt: string;
}

export interface CollectionSummary extends CollectionRef {
  documents: number;
  passages: number;
  chars: number;
  /** UTF-8 bytes of the kept text (what the storage allowance counts). */
  bytes: number;
  /** When a document was last added or replaced; null for an empty collection. */
  updatedAt: string | null;
}

/**
 * Whose collections a search may read (README "Collections for a team"): every shared one,
 * and the private ones of these accounts — the caller's own; for `ask` and local MCP, those
 * the operator names. `all`: every collection (the operator's listing, tests).
 */
export type CollectionReader = { accounts: string[] } | "all";

export interface CorpusPassage {
  seq: number;
  text: string;
}

export interface NewCollection {
  name: string;
  ownerId: OwnerId;
  visibility: Visibility;
}

export interface CorpusTable {
  /** Creates a collection; null when its owner already has one of that name. */
  createCollection(c: NewCollection, audit?: AuditNote): Awaitable<CollectionSummary | null>;
  /** The collections a reader may read, by name (then owner). */
  collections(reader: CollectionReader): Awaitable<CollectionSummary[]>;
  /** One collection by its owner and name, readable or not (callers check), with its counts. */
  findCollection(ownerId: OwnerId, name: string): Awaitable<CollectionSummary | null>;
  /**
   * `findCollection` without the counts, for routes that show none: one row by the
   * (owner, name) index, never the collection's documents or passages.
   */
  collectionRef(ownerId: OwnerId, name: string): Awaitable<CollectionRef | null>;
  /** The shared collections named `name`, whoever owns them, without their counts. */
  sharedRefs(name: string): Awaitable<CollectionRef[]>;
  /** The ids of the collections a reader may read. */
  readable(reader: CollectionReader): Awaitable<number[]>;
  /**
   * Renames, re-shares or hands over a collection. "taken": the (new) owner already has a
   * collection of that name; "missing": no collection of that id.
   */
  updateCollection(
    id: number,
    change: { name?: string; visibility?: Visibility; ownerId?: OwnerId },
    audit?: AuditNote,
  ): Awaitable<"ok" | "taken" | "missing">;
  /**
   * Keeps documents in a collection, each with its passages in one transaction for the whole
   * batch: an interrupted import leaves no half-written document. A document whose hash is
   * unchanged is left as it is; a changed one replaces the old. Throws when the collection
   * is gone (removed while an import ran).
   */
  put(collectionId: number, docs: CorpusDocumentInput[]): Awaitable<CorpusPutOutcome[]>;
  /** Documents of a collection in doc_id order; with `docIds`, only those. */
  documents(collectionId: number, docIds?: string[]): Awaitable<CorpusDocumentRow[]>;
  /**
   * A page of the doc_ids a collection lists, stored or on their way in (`corpus_uploads`), each
   * once, from `from` on in the database's own doc_id order (so `from` pages with the same
   * comparison that sorts), at most `limit`: both index ranges read, never the whole collection.
   */
  documentIds(collectionId: number, from: string, limit: number): Awaitable<string[]>;
  /** One document of a collection by its doc_id; null when it has none. */
  document(collectionId: number, docId: string): Awaitable<CorpusDocumentRow | null>;
  /** Removes a collection and its documents; null when there is no such collection. */
  removeCollection(id: number, audit?: AuditNote): Awaitable<number | null>;
  /** Removes documents by doc_id; returns how many there were. */
  /** The audit entry is written only when a document was removed. */
  removeDocuments(collectionId: number, docIds: string[], audit?: AuditNote): Awaitable<number>;
  /** True when any of these collections holds a document (the `local` provider then takes part in a run). */
  hasDocuments(collectionIds: number[]): Awaitable<boolean>;
  /**
   * The passages of a document that best match any of the words (as the user wrote them, lower-cased),
   * in document order; its first ones when none match.
   */
  bestPassages(documentId: number, words: string[], limit: number): Awaitable<CorpusPassage[]>;
}

export type UploadStatus = "queued" | "indexing" | "failed";

/** A file uploaded to a collection on its way in (README "Collections for a team"). */
export interface UploadRow {
  id: number;
  collectionId: number;
  /** The file's name: its document's doc_id (a JSONL file's records keep their own). */
  docId: string;
  format: string;
  /** The file's size as uploaded. */
  bytes: number;
  /** Its folder in the spool (UPLOAD_DIR); null once failed. */
  spool: string | null;
  /** The instance that received it and imports it. */
  instanceId: string | null;
  /** The collection's owner (whose storage allowance it counts against). */
  ownerId: string | null;
  status: UploadStatus;
  error: string | null;
  createdAt: string;
}

export type NewUpload = Pick<UploadRow, "collectionId" | "docId" | "format" | "bytes" | "instanceId"> & {
  spool: string;
};

/**
 * What an account keeps in its own collections: its stored documents, plus the files still on
 * their way in, each at its upload size (one document, unless it replaces a stored one).
 */
export interface StorageUse {
  documents: number;
  bytes: number;
}

export type EnqueueOutcome = { queued: UploadRow[]; superseded: string[] } | "over" | "missing";

/**
 * The upload queue (src/collections/import/import-queue.ts): rows of `corpus_uploads`. The rules
 * (allowance, order, who imports) are the caller's; these are their reads and writes.
 */
export interface UploadsTable {
  /**
   * In one transaction, serialised per owner: supersedes the rows of the same doc_ids still
   * queued or failed (their spools are returned to delete), adds the files `queued`, then
   * asks `fits` with the owner's storage use counting them; false rolls it all back ("over").
   * "missing": the collection is gone.
   */
  enqueue(
    collectionId: number,
    ownerId: string,
    files: NewUpload[],
    fits: (use: StorageUse) => boolean,
    audit?: AuditNote,
  ): Awaitable<EnqueueOutcome>;
  storageUse(ownerId: string): Awaitable<StorageUse>;
  /**
   * The next file this instance received to import, marked `indexing`: the first queued of each
   * collection in turn, never one of a collection with another file `indexing` (so one
   * collection's files are imported in upload order, whichever instance received them).
   */
  claim(instanceId: string): Awaitable<UploadRow | null>;
  /** Removes an imported file's row; false when it was gone (removed while it was imported). */
  finish(id: number): Awaitable<boolean>;
  /**
   * Marks a file failed with the reason; its spool is forgotten (deleted by the caller). False
   * when the row was gone (removed while it was imported), as `finish`.
   */
  fail(id: number, error: string): Awaitable<boolean>;
  /** Whether the row is still there: false once its document was removed. */
  present(id: number): Awaitable<boolean>;
  /** The rows of a collection, oldest first; with `docIds`, only theirs. */
  inFlight(collectionId: number, docIds?: string[]): Awaitable<UploadRow[]>;
  /** Which of these collections have a file queued or indexing. */
  busy(collectionIds: number[]): Awaitable<number[]>;
  /** Rows queued or indexing under an instance whose lease is not live (a crash, a stop mid-import). */
  orphans(): Awaitable<UploadRow[]>;
  /** Takes an orphan over as `queued` under this instance; false when another took it first. */
  adopt(id: number, instanceId: string): Awaitable<boolean>;
  /** Removes a collection's rows of this doc_id, whatever their status; returns them. */
  /** `audit` is written with the removal, in its transaction, only when a row went. */
  remove(collectionId: number, docId: string, audit?: AuditNote): Awaitable<UploadRow[]>;
  /** Every spool folder a row still names (the sweep keeps them). */
  spools(): Awaitable<string[]>;
  /** Files by status, every instance's (/metrics). */
  statusCounts(): Awaitable<Record<UploadRow["status"], number>>;
}

/**
 * One entry of the audit trail as a change hands it to the store (README "The audit trail"):
 * the port that makes the change writes it in the same transaction, and only when the change
 * happened. `actorId`/`targetId` name accounts (what the Console reads by); the labels are
 * what a person reads (an address, a key's prefix, a collection's name). Never a secret.
 */
export interface AuditNote {
  action: string;
  actorId: string | null;
  actor: string | null;
  targetId?: string | null;
  target?: string | null;
  ip: string | null;
  detail?: string | null;
}

export interface AuditRow {
  id: number;
  at: string;
  action: string;
  actorId: string | null;
  actor: string | null;
  targetId: string | null;
  target: string | null;
  ip: string | null;
  detail: string | null;
  /** Failed sign-ins not written one by one after this row (their bound was reached). */
  cut: number;
}

/** Bounds on failed sign-ins: at most `max` rows per client address, and per address typed, within `windowMs`. */
export interface FailedSigninBound {
  max: number;
  windowMs: number;
}

export interface AuditTable {
  /** An event that changes nothing else (an export, an operator's command). */
  append(note: AuditNote): Awaitable<void>;
  /**
   * A failed sign-in, bounded: written while its client address and the address typed each
   * have fewer than `bound.max` rows in the window; otherwise counted into the newest of them.
   */
  failedSignin(note: AuditNote, bound: FailedSigninBound): Awaitable<"written" | "counted">;
  /** Events where the account is actor or target, newest first, ids below `before` (null: from the newest). */
  forAccount(accountId: string, before: number | null, limit: number): Awaitable<AuditRow[]>;
  /** Every event, newest first, optionally since a time and about one account (actor or target), ids below `before`. */
  list(filter: { since?: string; accountId?: string; before?: number | null; limit: number }): Awaitable<AuditRow[]>;
  /** Deletes at most `limit` events older than `cutoff`, oldest first; how many went (the retention sweep). */
  deleteAuditEventsBefore(cutoff: Date, limit: number): Promise<number>;
}

export interface Store {
  readonly backend: "sqlite" | "postgres";
  accounts: AccountsTable;
  sessions: SessionsTable;
  apiKeys: ApiKeysTable;
  runs: RunsTable;
  runCounters: RunCountersTable;
  settings: SettingsTable;
  identities: IdentitiesTable;
  emailConfirmations: EmailConfirmationsTable;
  instances: InstancesTable;
  corpus: CorpusTable;
  /** Files uploaded to collections, until imported. */
  uploads: UploadsTable;
  /** The audit trail; changes write their own entries through their ports' `audit` argument. */
  audit: AuditTable;
  /** The collections' index as the ranker reads it (src/corpus/search ranks). */
  corpusIndex: CorpusIndex;
  /** Where a search thread opens the collections itself; null when only this connection can. */
  corpusReaderSource: CorpusReaderSource | null;
  /** Shared sign-in counters; null where the process's memory serves (SQLite). */
  loginAttempts: LoginAttemptsTable | null;
  /** Shared sign-up buckets; null where the process's memory serves (SQLite). */
  signupBuckets: SignupBucketsTable | null;
  /** Running runs' events for followers on other hosts; null on SQLite (they wait for the stored run). */
  runStream: RunStreamTable | null;
  /** One trivial statement: throws when the database cannot be reached (store/unreachable.ts). */
  ping(): Awaitable<void>;
  close(): Awaitable<void>;
}
