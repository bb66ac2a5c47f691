import { SECURITY_HEADERS } from "./security-headers.ts";

/**
 * CORS for the routes whose credential is an API key (http/route.ts `key`), and only those:
 * any origin, never credentials (keys belong in headers, not cookies), so a browser page can
 * call the API but never ride a session. The security headers ride along: these answers skip
 * the main pipeline, which adds them to the others.
 */
export const KEY_CORS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "X-Request-Id, Retry-After, Idempotent-Replayed, RateLimit, RateLimit-Policy",
};

/** The preflight's answer for a key route of these methods. */
export function preflightHeaders(methods: readonly string[]): Readonly<Record<string, string>> {
  return {
    ...KEY_CORS,
    "access-control-allow-methods": [...methods, "OPTIONS"].join(", "),
    "access-control-allow-headers": "Authorization, X-Api-Key, Content-Type, Idempotency-Key, Last-Event-ID",
    "access-control-max-age": "600",
    vary: "Access-Control-Request-Method, Access-Control-Request-Headers",
  };
}
