/**
 * Every stable error code the service emits (SPEC §5, §7; CONTRACT §3–§5), plus
 * config_invalid for start-up. One place (src/http/errors.ts) maps them to responses.
 */
export type ErrorCode =
  | "missing_api_key" | "invalid_api_key" | "key_inactive" | "quota_exceeded" | "CROSS_SITE_REQUEST"
  | "invalid_request" | "unauthorized" | "email_taken" | "invalid_credentials" | "too_many_attempts"
  | "key_not_found" | "run_not_found" | "not_found" | "oidc_failed"
  | "access_denied" | "invalid_state" | "email_not_verified" | "domain_not_allowed"
  | "search_failed" | "no_sources" | "llm_failed" | "run_timeout" | "internal_error" | "interrupted"
  | "config_invalid";

const defaultStatus: Partial<Record<ErrorCode, number>> = {
  missing_api_key: 401, invalid_api_key: 401, key_inactive: 403, quota_exceeded: 429,
  CROSS_SITE_REQUEST: 403, invalid_request: 400, unauthorized: 401, email_taken: 409,
  invalid_credentials: 401, too_many_attempts: 429, key_not_found: 404, run_not_found: 404,
  not_found: 404, oidc_failed: 400,
  access_denied: 403, invalid_state: 400, email_not_verified: 409, domain_not_allowed: 403,
};

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
    this.status = status ?? defaultStatus[code] ?? 500;
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
export interface ErrorItem { code: string; message: string }

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
