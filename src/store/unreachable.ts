import { AppError } from "../contract/errors.ts";

/**
 * Bun's PostgreSQL client, as it fails when the server is away (measured against a real one,
 * docs/decisions/0099-postgres-outage.md): refused while it is down, closed for queries in
 * flight when it goes, timed out when it does not answer, failed when the host is unreachable.
 */
const CLIENT_CODES: ReadonlySet<string> = new Set([
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_CONNECTION_FAILED",
]);

/**
 * What the server says while it goes or comes back: 57P01 admin shutdown (sessions
 * terminated by a fast stop), 57P02 crash shutdown, 57P03 cannot connect now (starting or
 * shutting down), class 08 connection exceptions, 53300 too many connections.
 */
const SERVER_STATES = /^(57P0[123]|08...|53300)$/;

/** Whether an error says the database could not be reached (and may be again soon), not that a statement failed. */
export function isDatabaseUnreachable(e: unknown): boolean {
  const x = e as { code?: unknown; errno?: unknown } | null;
  if (typeof x?.code === "string" && CLIENT_CODES.has(x.code)) return true;
  return x?.code === "ERR_POSTGRES_SERVER_ERROR" && typeof x.errno === "string" && SERVER_STATES.test(x.errno);
}

/** How long a caller is told to wait before trying again while the database is away. */
export const UNREACHABLE_RETRY_S = 5;

/** The answer to a call that needed the database while it could not be reached. */
export const DATABASE_UNREACHABLE = Object.freeze(
  new AppError("service_unavailable", "the database cannot be reached; retry shortly", 503, {
    "Retry-After": String(UNREACHABLE_RETRY_S),
  }),
);

/** A thrown error as callers should hear it: the database's absence as 503, anything else unchanged. */
export const asUnavailable = (e: unknown): unknown => (isDatabaseUnreachable(e) ? DATABASE_UNREACHABLE : e);
