import type { ServerLike } from "./server-like.ts";

// Threat: connection exhaustion. Bun closes a connection silent for its idleTimeout; lifting
// that for every request on the run routes let 1,100 keyless connections pin the server. The
// timeout is lifted only once a run is accepted (runs/http/run-response.ts): our own deadline,
// RUN_TIMEOUT_MS, bounds those.
const holds = new WeakMap<Request, ServerLike>();

/** The outer handler records which server holds a request (Elysia's context has no server). */
export function offerHold(request: Request, server: ServerLike): void {
  holds.set(request, server);
}

/** Keeps this request's connection open past the idle timeout: only for an accepted run. */
export function holdConnection(request: Request): void {
  holds.get(request)?.timeout(request, 0);
}
