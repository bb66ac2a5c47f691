import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import {
  AppError,
  ERROR_CODES,
  ERRORS,
  ErrorBodySchema,
  type ErrorCode,
  type ErrorItem,
  ErrorItemSchema,
  errorKind,
  errorStatus,
  isAppError,
  KEY_FAILURE_CODES,
  RUN_FAILURE_CODES,
  sharedError,
} from "../../src/contract/errors.ts";

/**
 * The ErrorCode union and the statuses of src/errors.ts as they were before the contract
 * module (commit 41765d2): `new AppError(code)` gave defaultStatus[code] ?? 500. Kept here
 * verbatim because src/errors.ts now re-exports the contract.
 */
const LEGACY_STATUS = {
  missing_api_key: 401,
  invalid_api_key: 401,
  key_inactive: 403,
  quota_exceeded: 429,
  CROSS_SITE_REQUEST: 403,
  invalid_request: 400,
  unauthorized: 401,
  email_taken: 409,
  invalid_credentials: 401,
  too_many_attempts: 429,
  key_not_found: 404,
  run_not_found: 404,
  not_found: 404,
  oidc_failed: 400,
  access_denied: 403,
  invalid_state: 400,
  email_not_verified: 409,
  domain_not_allowed: 403,
  search_failed: 500,
  no_sources: 500,
  llm_failed: 500,
  run_timeout: 500,
  internal_error: 500,
  interrupted: 500,
  config_invalid: 500,
} as const;
type LegacyErrorCode = keyof typeof LEGACY_STATUS;

// Compile-time: every legacy code is a contract code (bun run typecheck fails otherwise).
const legacyIsContract: [LegacyErrorCode] extends [ErrorCode] ? true : false = true;

describe("the error table", () => {
  test("every code of the old ErrorCode union is in the table, with the status new AppError(code) gave", () => {
    expect(legacyIsContract).toBe(true);
    for (const [code, status] of Object.entries(LEGACY_STATUS) as [LegacyErrorCode, number][]) {
      expect(ERRORS[code]).toBeDefined();
      expect([code, errorStatus(code)]).toEqual([code, status]);
      expect([code, new AppError(code, "x").status]).toEqual([code, status]);
    }
  });

  test("the only additions are idempotency_key_reused (422), the sign-up refusals, the deletion's, the address confirmation's, the key cap's, the collections' and the uploads' refusals, service_unavailable (503, the database away), client_closed (a run failure code), second_opinion_failed (a completed run's notice) and MCP's server_unreachable and too_many_calls", () => {
    expect(ERROR_CODES.filter((c) => !(c in LEGACY_STATUS))).toEqual([
      "too_many_signups",
      "signup_not_allowed",
      "key_limit_reached",
      "collection_not_found",
      "collection_exists",
      "collection_ambiguous",
      "invalid_collection_name",
      "document_not_found",
      "idempotency_key_reused",
      "reauthentication_required",
      "email_not_confirmed",
      "confirmation_invalid",
      "mail_failed",
      "upload_too_large",
      "too_many_files",
      "invalid_file_name",
      "unsupported_format",
      "upload_incomplete",
      "storage_quota_exceeded",
      "insufficient_storage",
      "service_unavailable",
      "search_unavailable",
      "client_closed",
      "second_opinion_failed",
      "server_unreachable",
      "too_many_calls",
    ]);
    expect(errorKind("server_unreachable")).toBe("client");
    expect([errorKind("too_many_calls"), errorStatus("too_many_calls")]).toEqual(["client", 429]);
    expect(errorStatus("idempotency_key_reused")).toBe(422);
    expect([errorStatus("reauthentication_required"), errorKind("reauthentication_required")]).toEqual([
      403,
      "refusal",
    ]);
    expect([errorStatus("service_unavailable"), errorKind("service_unavailable")]).toEqual([503, "refusal"]);
    expect([errorStatus("search_unavailable"), errorKind("search_unavailable")]).toEqual([503, "refusal"]);
    expect(
      (
        [
          "collection_not_found",
          "collection_exists",
          "collection_ambiguous",
          "invalid_collection_name",
          "document_not_found",
        ] as const
      ).map(errorStatus),
    ).toEqual([404, 409, 409, 400, 404]);
    expect(RUN_FAILURE_CODES.has("client_closed")).toBe(true);
    expect(errorStatus("client_closed")).toBe(500);
  });

  test("kinds: the key failures, the run failures, start-up", () => {
    expect([...KEY_FAILURE_CODES].sort()).toEqual(["invalid_api_key", "key_inactive", "missing_api_key"]);
    expect([...RUN_FAILURE_CODES].sort()).toEqual([
      "client_closed",
      "internal_error",
      "interrupted",
      "llm_failed",
      "no_sources",
      "run_timeout",
      "search_failed",
    ]);
    expect(errorKind("config_invalid")).toBe("startup");
    // A completed run's note: never a failure code, so the run stays ok.
    expect([errorKind("second_opinion_failed"), RUN_FAILURE_CODES.has("second_opinion_failed")]).toEqual([
      "notice",
      false,
    ]);
    for (const c of ERROR_CODES) {
      // A refusal is the client's to fix (4xx), except a full disk (507) and a database away (503):
      // the server's, nothing started either.
      const servers = ["insufficient_storage", "service_unavailable", "mail_failed", "search_unavailable"];
      if (ERRORS[c].kind === "refusal")
        expect([c, (ERRORS[c].status >= 400 && ERRORS[c].status < 500) || servers.includes(c)]).toEqual([c, true]);
      expect(ERRORS[c].description.length).toBeGreaterThan(0);
    }
    expect(ERRORS.insufficient_storage.status).toBe(507);
  });
});

describe("AppError keeps the API of src/errors.ts", () => {
  test("constructor (code, message, status?, headers?) and fields", () => {
    const e = new AppError("quota_exceeded", "used up", undefined, { "Retry-After": "60" });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("AppError");
    expect([e.code, e.message, e.status, e.headers]).toEqual([
      "quota_exceeded",
      "used up",
      429,
      { "Retry-After": "60" },
    ]);
    expect(new AppError("internal_error", "draining", 503).status).toBe(503);
    expect(new AppError("not_found", "x").headers).toBeUndefined();
    expect(isAppError(e)).toBe(true);
    expect(isAppError(new Error("x"))).toBe(false);
  });

  test("sharedError is frozen and keeps its status", () => {
    const e = sharedError("invalid_api_key", "unknown key");
    expect(Object.isFrozen(e)).toBe(true);
    expect([e.code, e.status]).toEqual(["invalid_api_key", 401]);
  });
});

describe("error schemas", () => {
  test("ErrorItem and ErrorBody", () => {
    const item: ErrorItem = { code: "no_sources", message: "nothing usable was found" };
    expect(Value.Check(ErrorItemSchema, item)).toBe(true);
    expect(Value.Check(ErrorBodySchema, { errors: [item] })).toBe(true);
    expect(Value.Check(ErrorBodySchema, { errors: [] })).toBe(false);
    expect(Value.Check(ErrorItemSchema, { code: "x" })).toBe(false);
    expect(ErrorItemSchema.required as string[] | undefined).toEqual(["code", "message"]);
  });

  test("the code's description lists every code", () => {
    const description = ErrorItemSchema.properties.code.description ?? "";
    for (const c of ERROR_CODES) expect(description).toContain(`\`${c}\``);
  });
});
