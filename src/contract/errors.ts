import { Type as T, type TSchema } from "@sinclair/typebox";

/**
 * The one table of every stable error code the service emits (README "The API"),
 * with the HTTP status an AppError of that code gets by default and its kind:
 *  - "key":      key failures of the query endpoints; the stream endpoint answers them as
 *                `error` + `final` events on HTTP 200 (README "The API", stream events), /api/query with `status`.
 *  - "refusal":  other 4xx answers (no run was started).
 *  - "run":      failures of an accepted run; they travel in the envelope on HTTP 200
 *                (`status` is what a thrown AppError of that code maps to: 500).
 *  - "notice":   a completed run's note in `errors` beside `status: "ok"`; nothing failed.
 *  - "startup":  the server refuses to start.
 *  - "client":   reported by the CLI's own client of a server (`mcp --server`, `openai --server`), never by a server.
 * Statuses, run failure codes and key failure codes all derive from this table.
 */
export const ERRORS = {
  missing_api_key: { status: 401, kind: "key", description: "No API key sent to a query endpoint" },
  invalid_api_key: { status: 401, kind: "key", description: "Unknown key, or one that lacks the rq- prefix" },
  key_inactive: { status: 403, kind: "key", description: "The key was revoked" },
  quota_exceeded: {
    status: 429,
    kind: "refusal",
    description: "The plan's monthly research runs are used up (Retry-After: seconds until the next month)",
  },
  CROSS_SITE_REQUEST: {
    status: 403,
    kind: "refusal",
    description:
      "A write (POST, PATCH, PUT, DELETE) outside the query endpoints from another site: Sec-Fetch-Site: cross-site, or an Origin (null included) that is not the server's",
  },
  invalid_request: {
    status: 400,
    kind: "refusal",
    description: "The request body or a parameter is not valid; the message names the problem",
  },
  unauthorized: { status: 401, kind: "refusal", description: "No valid session cookie" },
  email_taken: { status: 409, kind: "refusal", description: "An account with this email exists" },
  invalid_credentials: {
    status: 401,
    kind: "refusal",
    description: "Wrong email or password (the same answer for both)",
  },
  too_many_attempts: { status: 429, kind: "refusal", description: "Repeated failed sign-ins (Retry-After: seconds)" },
  too_many_signups: {
    status: 429,
    kind: "refusal",
    description:
      "Sign-ups from this client address are over SIGNUP_PER_HOUR, or too many sign-ups are waiting at once (Retry-After: seconds)",
  },
  signup_not_allowed: {
    status: 403,
    kind: "refusal",
    description: "Sign-up is closed on this server (SIGNUP=closed), or the email's domain is not in SIGNUP_DOMAINS",
  },
  key_not_found: { status: 404, kind: "refusal", description: "No such key on this account" },
  key_limit_reached: {
    status: 409,
    kind: "refusal",
    description: "The account has KEYS_PER_ACCOUNT active keys: revoke one to create another",
  },
  run_not_found: {
    status: 404,
    kind: "refusal",
    description: "No such run on this account (the Console; a Last-Event-ID naming no run of the key's account)",
  },
  collection_not_found: {
    status: 404,
    kind: "refusal",
    description:
      "No collection of that name the account may read — or, for a change, none of its own (another account's private collection answers the same)",
  },
  collection_exists: { status: 409, kind: "refusal", description: "The account already has a collection of that name" },
  collection_ambiguous: {
    status: 409,
    kind: "refusal",
    description: "Several owners share a collection of that name: pick one with ?owner=EMAIL",
  },
  invalid_collection_name: {
    status: 400,
    kind: "refusal",
    description: "Not a collection name (1–64 letters, digits, '.', '_' or '-'); the message names the problem",
  },
  document_not_found: {
    status: 404,
    kind: "refusal",
    description: "No document of that doc_id in the collection",
  },
  idempotency_key_reused: {
    status: 422,
    kind: "refusal",
    description: "The Idempotency-Key was sent with another question in the last 24 hours; nothing was started",
  },
  not_found: {
    status: 404,
    kind: "refusal",
    description: "No such endpoint or method, or no identity provider configured",
  },
  oidc_failed: {
    status: 400,
    kind: "refusal",
    description: "Sign-in through the identity provider failed (in /signin?error=)",
  },
  access_denied: {
    status: 403,
    kind: "refusal",
    description: "The identity provider denied the sign-in (in /signin?error=)",
  },
  invalid_state: {
    status: 400,
    kind: "refusal",
    description: "The sign-in flow's state did not match (in /signin?error=)",
  },
  email_not_verified: {
    status: 409,
    kind: "refusal",
    description: "The provider's email is not verified and belongs to an account (in /signin?error=)",
  },
  domain_not_allowed: {
    status: 403,
    kind: "refusal",
    description: "The email's domain is not allowed to sign in (in /signin?error=)",
  },
  reauthentication_required: {
    status: 403,
    kind: "refusal",
    description:
      "Deleting an identity-provider account needs a sign-in within the last 10 minutes: sign in again, then delete",
  },
  email_not_confirmed: {
    status: 403,
    kind: "refusal",
    description:
      "The password is right, but the account's address was never confirmed: follow the link mailed at sign-up, or ask for another (POST /api/v1/auth/confirm/resend)",
  },
  confirmation_invalid: {
    status: 400,
    kind: "refusal",
    description:
      "The confirmation link is unknown, used or expired (POST /api/v1/auth/confirm, or in /signin?error= after opening it)",
  },
  mail_failed: {
    status: 502,
    kind: "refusal",
    description:
      "The mail server (SMTP_URL) refused or dropped the confirmation mail, or did not answer in time; nothing was created",
  },
  upload_too_large: {
    status: 413,
    kind: "refusal",
    description:
      "An upload's body is over UPLOAD_MAX_REQUEST_BYTES or one of its files over UPLOAD_MAX_FILE_BYTES (told by Content-Length before reading, else as the bytes arrive); nothing was stored",
  },
  too_many_files: {
    status: 413,
    kind: "refusal",
    description: "An upload carries more than UPLOAD_MAX_FILES files; nothing was stored",
  },
  invalid_file_name: {
    status: 400,
    kind: "refusal",
    description:
      'A file\'s name cannot be a doc_id (empty, over 255 bytes, "/" or "\\", "." or "..", control characters) or is given twice; nothing was stored',
  },
  unsupported_format: {
    status: 400,
    kind: "refusal",
    description:
      "A file's name ends in none of the formats collections import (.pdf, .html, .htm, .md, .markdown, .txt, .jsonl, .jsonl.gz); nothing was stored",
  },
  upload_incomplete: {
    status: 400,
    kind: "refusal",
    description:
      "The upload's body ended before its closing boundary (a cut connection) or stopped arriving for the body timeout; nothing was stored",
  },
  storage_quota_exceeded: {
    status: 413,
    kind: "refusal",
    description:
      "The upload would take the account's collections past its plan's documents or bytes (PLAN_DOCS_*, PLAN_BYTES_*); nothing was stored",
  },
  insufficient_storage: {
    status: 507,
    kind: "refusal",
    description: "The server's disk is full: the upload could not be kept; nothing was stored",
  },
  service_unavailable: {
    status: 503,
    kind: "refusal",
    description:
      "The database cannot be reached (PostgreSQL down or restarting); nothing was started (Retry-After: seconds). Answers of runs that ended meanwhile are written once it is back",
  },
  search_unavailable: {
    status: 503,
    kind: "refusal",
    description:
      "Nothing could search for the question: no web provider is configured, the academic databases cannot be reached from the server, and no collection the caller may read holds documents; the message names what to configure. Nothing was started or charged (Retry-After: seconds until the databases are probed again)",
  },
  search_failed: { status: 500, kind: "run", description: "No search provider answered" },
  no_sources: { status: 500, kind: "run", description: "Nothing usable was found or read" },
  llm_failed: { status: 500, kind: "run", description: "The writer's model failed after retries" },
  run_timeout: { status: 500, kind: "run", description: "RUN_TIMEOUT_MS passed" },
  internal_error: {
    status: 500,
    kind: "run",
    description: "An unexpected failure (also the 500 of any route, and 503 while shutting down)",
  },
  interrupted: { status: 500, kind: "run", description: "A server shutdown or crash ended the run" },
  client_closed: {
    status: 500,
    kind: "run",
    description: "Runs of earlier versions stopped when their client left; runs now outlive their connection",
  },
  second_opinion_failed: {
    status: 200,
    kind: "notice",
    description:
      "In a completed run (status ok): the checking model (VERIFY_BASE_URL) could not judge some claims, or was not asked for want of time; their verdicts are the check's own",
  },
  config_invalid: {
    status: 500,
    kind: "startup",
    description: "A configuration variable is invalid; the server does not start",
  },
  server_unreachable: {
    status: 502,
    kind: "client",
    description:
      "`mcp --server`, `openai --server`: the research-query server could not be reached, or broke off and could not be rejoined, after retries",
  },
  too_many_calls: {
    status: 429,
    kind: "client",
    description:
      "`mcp` and `openai` (local mode): MCP_MAX_CONCURRENT research calls are already running; this one was not started (try again when one has answered)",
  },
} as const satisfies Record<string, { status: number; kind: ErrorKind; description: string }>;

export type ErrorKind = "key" | "refusal" | "run" | "notice" | "startup" | "client";

/** Every code the service emits. */
export type ErrorCode = keyof typeof ERRORS;

/** The codes, in table order. */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The HTTP status an error of this code maps to unless a caller says otherwise. */
export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status;
}

export function errorKind(code: ErrorCode): ErrorKind {
  return ERRORS[code].kind;
}

const codesOf = (kind: ErrorKind): ReadonlySet<string> => new Set(ERROR_CODES.filter((c) => ERRORS[c].kind === kind));

/** Codes of a run that was accepted and then failed: envelope on HTTP 200 (README "The API"). */
export const RUN_FAILURE_CODES: ReadonlySet<string> = codesOf("run");
/** The three key failures: error + final events on HTTP 200 on the stream endpoint. */
export const KEY_FAILURE_CODES: ReadonlySet<string> = codesOf("key");

/** A typed error with a stable contract code and the HTTP status it maps to. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers?: Record<string, string>;
  constructor(code: ErrorCode, message: string, status?: number, headers?: Record<string, string>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = status ?? errorStatus(code);
    this.headers = headers;
  }
}

/**
 * One shared instance per refusal that needs no detail. Capturing a stack is a tenth of a
 * refusal's cost and these are expected outcomes, not bugs: throw the same object each time.
 * Frozen, so no caller can alter what the next one throws.
 */
export function sharedError(code: ErrorCode, message: string): AppError {
  return Object.freeze(new AppError(code, message));
}

/** The {code, message} item of an errors array. */
export interface ErrorItem {
  code: string;
  message: string;
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

const codeList = ERROR_CODES.map(
  (c) =>
    `\`${c}\` (${ERRORS[c].kind}${ERRORS[c].kind === "run" || ERRORS[c].kind === "notice" ? ", HTTP 200 envelope" : `, ${ERRORS[c].status}`}): ${ERRORS[c].description}`,
).join("; ");

/** One error: a stable code and a human-readable message. */
export const ErrorItemSchema = T.Object(
  {
    code: T.String({
      description: `A stable error code. Known codes: ${codeList}.`,
      examples: ["missing_api_key", "quota_exceeded", "no_sources"],
    }),
    message: T.String({ description: "Human-readable; wording may change" }),
  },
  { description: "An error: a stable code and a message" },
);

/** Every error answer outside the two query endpoints (README "The API"). */
export const ErrorBodySchema = T.Object(
  {
    errors: T.Array(ErrorItemSchema, { minItems: 1 }),
  },
  { description: "The error body outside the query endpoints: {errors: [{code, message}]}" },
);

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const ERROR_SCHEMAS = {
  ErrorItem: ErrorItemSchema,
  ErrorBody: ErrorBodySchema,
} as const satisfies Record<string, TSchema>;
