import { AppError } from "../../contract/errors.ts";
import { parseEventId } from "../../contract/events.ts";

/**
 * The request headers of safe retries (README "Safe retries") and the `retry:` hints the
 * streams carry.
 */

/** How long a client waits before reconnecting a dropped stream: a resumed stream costs nothing. */
export const RETRY_MS = 1000;

/**
 * The hint of a stream that ends a refusal (bad key): the same call would be refused again,
 * so a client that reconnects on its own (the `eventsource` package does after any close)
 * waits an hour instead of hammering the server. Below 2^31 ms, which setTimeout would wrap.
 */
export const REFUSAL_RETRY_MS = 3_600_000;

const IDEMPOTENCY_KEY = /^[\x21-\x7e][\x20-\x7e]{0,254}$/;

/** The Idempotency-Key sent, if any: 1 to 255 printable ASCII characters; else invalid_request. */
export function idempotencyKeyOf(headers: Headers): string | undefined {
  const raw = headers.get("idempotency-key");
  if (raw === null) return undefined;
  const key = raw.trim();
  if (!IDEMPOTENCY_KEY.test(key))
    throw new AppError("invalid_request", "Idempotency-Key must be 1 to 255 printable ASCII characters");
  return key;
}

/** The event a reconnecting stream last received (Last-Event-ID), if any; else invalid_request. */
export function lastEventIdOf(headers: Headers): { requestId: string; seq: number } | undefined {
  const raw = headers.get("last-event-id")?.trim();
  if (!raw) return undefined;
  const id = parseEventId(raw);
  if (!id)
    throw new AppError(
      "invalid_request",
      "Last-Event-ID must be an event id this server sent: <request_id>:<sequence>",
    );
  return id;
}
