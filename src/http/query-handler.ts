import { getAccount } from "../auth/accounts.ts";
import { AppError, isAppError } from "../errors.ts";
import { authenticateKey, presentedKey } from "../keys/api-keys.ts";
import { acceptRun, allowanceFor } from "../quota/allowance.ts";
import { refusalEnvelope, type Envelope } from "../runs/envelope.ts";
import { executeRun } from "../runs/runner.ts";
import { monthBounds } from "../util/time.ts";
import type { AppDeps } from "./deps.ts";
import { readQueryBody } from "./query-body.ts";
import { json } from "./responses.ts";
import { sseResponse } from "./sse.ts";

/** Who is asking: an API key (query endpoints) or a session (the web client's /api/v1/research). */
export type Caller =
  | { kind: "key" }
  | { kind: "session"; accountId: string | null };

const KEY_FAILURES = new Set(["missing_api_key", "invalid_api_key", "key_inactive"]);

/** Who passed the credential check. */
interface Identity { accountId: string; keyId: string | null; keyPrefix: string | null }

/**
 * One query call, JSON or stream. Order of checks (CONTRACT §5): credentials, body,
 * allowance; only a call passing all three is accepted and counted. `extraHeaders` go on
 * every response (the query endpoints' CORS headers). The credential check is synchronous
 * and so is its refusal: the commonest refusal never waits on a promise.
 */
export function handleQuery(deps: AppDeps, request: Request, mode: "json" | "stream", caller: Caller, endpoint: string, extraHeaders: Readonly<Record<string, string>> = {}): Response | Promise<Response> {
  const requestId = crypto.randomUUID();
  const startedAt = performance.now();
  const headers = { ...extraHeaders, "x-request-id": requestId };
  const refuse = (err: AppError): Response => {
    const env = refusalEnvelope(requestId, startedAt, [{ code: err.code, message: err.message }]);
    if (mode === "stream" && KEY_FAILURES.has(err.code)) {
      return sseResponse(async (send) => { send("error", env.errors[0]); send("final", env); }, { keepAliveMs: deps.keepAliveMs, requestSignal: request.signal, headers });
    }
    return json(env, err.status, err.headers ? { ...headers, ...err.headers } : headers);
  };
  const fail = (e: unknown): Response => {
    if (isAppError(e)) return refuse(e);
    deps.logger.error("query_failed", { request_id: requestId, error: String(e) });
    return refuse(new AppError("internal_error", "internal error", 500));
  };

  let who: Identity;
  try {
    if (deps.registry.isDraining) throw new AppError("internal_error", "the server is shutting down; retry shortly", 503, { "Retry-After": "5" });
    if (caller.kind === "key") {
      const id = authenticateKey(deps.db, presentedKey(request.headers));
      who = { accountId: id.accountId, keyId: id.keyId, keyPrefix: id.prefix };
    } else {
      if (!caller.accountId) throw new AppError("unauthorized", "sign in first");
      who = { accountId: caller.accountId, keyId: null, keyPrefix: null };
    }
  } catch (e) { return fail(e); }
  return admitAndRun(deps, request, mode, caller, endpoint, who, requestId, startedAt, headers).catch(fail);
}

/** Body, allowance, then the run itself; throws the refusals for `handleQuery` to answer. */
async function admitAndRun(
  deps: AppDeps, request: Request, mode: "json" | "stream", caller: Caller, endpoint: string,
  { accountId, keyId, keyPrefix }: Identity, requestId: string, startedAt: number, headers: Record<string, string>,
): Promise<Response> {
  const query = await readQueryBody(request);
  const account = getAccount(deps.db, accountId);
  if (!account) throw new AppError(caller.kind === "key" ? "invalid_api_key" : "unauthorized", "the account no longer exists");
  const createdAt = new Date();
  const accepted = acceptRun(deps.db, {
    id: requestId, accountId, keyId, keyPrefix, origin: caller.kind === "key" ? "api" : "app", endpoint, query, createdAt,
  }, allowanceFor(deps.config, account.plan));
  if (!accepted) {
    const reset = monthBounds(createdAt).end;
    const retry = Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000));
    throw new AppError("quota_exceeded", `this month's research runs are used up; the allowance resets at ${reset.toISOString()}`, 429, { "Retry-After": String(retry) });
  }
  const run = { id: requestId, query, origin: caller.kind === "key" ? "api" : "app", endpoint, startedAt };
  if (mode === "json") {
    const env = await executeRun(deps, run, request.signal);
    return json(env, 200, headers);
  }
  return sseResponse(async (send, gone) => {
    send("progress", { stage: "planning", message: "Run accepted", request_id: requestId });
    // Let the headers and the first event leave before the engine's work takes the loop:
    // under a burst of calls, each client hears "accepted" without waiting for the others.
    await new Promise<void>((r) => setImmediate(r));
    let env: Envelope;
    try {
      env = await executeRun(deps, run, gone, (name, data) => { send(name, data); });
    } catch (e) {
      deps.logger.error("stream_run_failed", { request_id: requestId, error: String(e) });
      env = { ...refusalEnvelope(requestId, startedAt, [{ code: "internal_error", message: "the run failed unexpectedly" }]) };
    }
    for (const err of env.errors) send("error", err);
    send("final", env);
  }, { keepAliveMs: deps.keepAliveMs, requestSignal: request.signal, headers });
}
