import { ERRORS, type ErrorCode, errorKind, isAppError } from "../contract/errors.ts";

/** OpenAI's error body: what its SDKs read into `APIError` (message, type, code). */
export interface OpenAiErrorBody {
  error: { message: string; type: string; code: string; param: null };
}

/** One refusal or failure as the front answers it: the status, OpenAI's body, the headers. */
export interface OpenAiError {
  status: number;
  body: OpenAiErrorBody;
  headers: Record<string, string>;
}

/** OpenAI's `type` for a status: what its clients branch on beside the status. */
const TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  404: "invalid_request_error",
  429: "insufficient_quota",
  502: "server_error",
  503: "server_error",
};

/**
 * The one mapping of our codes to the front's answers (docs/decisions/0177-errors-as-openai-clients-expect-them.md):
 * every key failure is 401 (a revoked key too: to a chat client a key is good or it is not);
 * a run that failed after it was accepted is 502 (its upstreams failed). The SDKs retry 429
 * and 5xx on their own: `x-should-retry: false` stops them where a retry would start, and
 * charge, another run to no purpose (a spent allowance, a failed run).
 */
export function openAiError(code: string, message: string, retryAfter?: string | null): OpenAiError {
  const known = code in ERRORS ? (code as ErrorCode) : "internal_error";
  const kind = errorKind(known);
  const status = kind === "key" ? 401 : kind === "run" ? 502 : ERRORS[known].status;
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (retryAfter) headers["retry-after"] = retryAfter;
  if (kind === "run" || known === "quota_exceeded") headers["x-should-retry"] = "false";
  return {
    status,
    body: { error: { message, type: TYPES[status] ?? "server_error", code, param: null } },
    headers,
  };
}

/** A thrown failure (an AppError, or a bug of ours whose text stays in the log) as the front answers it. */
export function openAiErrorOf(e: unknown, log: (fields: Record<string, unknown>) => void): OpenAiError {
  if (isAppError(e)) return openAiError(e.code, e.message, e.headers?.["Retry-After"] ?? e.headers?.["retry-after"]);
  log({ error: String(e) });
  return openAiError("internal_error", "the front failed unexpectedly; its log has the details");
}

/** `extra`: headers passed on from the server (its RateLimit fields). */
export function errorResponse(err: OpenAiError, extra: Record<string, string> = {}): Response {
  return Response.json(err.body, { status: err.status, headers: { ...err.headers, ...extra } });
}
