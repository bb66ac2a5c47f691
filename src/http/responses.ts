import { AppError, type ErrorItem } from "../contract/errors.ts";

/** JSON response with our headers. */
/** An answer that holds the caller's own data: never kept by a cache between it and the caller. */
export const NO_STORE: Readonly<Record<string, string>> = { "cache-control": "no-store" };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** The error body outside the query endpoints (README "The API"): {errors: [{code, message}]}. */
export function errorResponse(err: AppError): Response {
  const item: ErrorItem = { code: err.code, message: err.message };
  return json({ errors: [item] }, err.status, err.headers ?? {});
}

/**
 * Maps anything thrown in a route to the contract's error shape. Elysia's own
 * validation and parse errors echo the request body (passwords too), so their text
 * is replaced by a message naming only the offending field.
 */
export function mapError(code: string | number, error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (code === "VALIDATION") {
    const e = error as { valueError?: { path?: string }; type?: string };
    const path = e.valueError?.path?.replace(/^\//, "") || "";
    return new AppError(
      "invalid_request",
      path ? `invalid or missing field: ${path}` : "the request body is not valid",
    );
  }
  if (code === "PARSE") return new AppError("invalid_request", "the request body is not valid JSON");
  if (code === "NOT_FOUND") return new AppError("not_found", "no such endpoint");
  return new AppError("internal_error", "internal error", 500);
}
