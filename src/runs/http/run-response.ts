import { AppError, isAppError, KEY_FAILURE_CODES } from "../../contract/errors.ts";
import { eventId } from "../../contract/events.ts";
import { holdConnection } from "../../http/connection-hold.ts";
import { json } from "../../http/responses.ts";
import { asUnavailable } from "../../store/unreachable.ts";
import type { Logger } from "../../util/logger.ts";
import { requestSpan } from "../../util/tracing/spans.ts";
import { processTurns, type Turns } from "../../util/turns.ts";
import { refusalEnvelope } from "../envelope.ts";
import type { Follow } from "../instances/follow.ts";
import type { Caller, Identity, RunService } from "../service.ts";
import { readQueryBody } from "./query-body.ts";
import { withRateLimit } from "./rate-limit-headers.ts";
import { idempotencyKeyOf, lastEventIdOf, REFUSAL_RETRY_MS, RETRY_MS } from "./retry-headers.ts";
import { sseResponse } from "./sse.ts";

export interface RunHttp {
  runs: RunService;
  logger: Logger;
  /** Longest silence on a stream before a `: keep-alive` comment (README "The API": ≤ 15 s). */
  keepAliveMs: number;
  /** How long a body may take to arrive (http/request-body.ts); tests shorten it. */
  bodyTimeoutMs?: number;
  /** Told of each stream run accepted (default: the process's turns, src/util/turns.ts); tests count them. */
  arrivals?: Pick<Turns, "arrived">;
}

/**
 * One run over HTTP, as JSON (the envelope when the run ends) or as an SSE stream of the
 * service's events with their ids. A Last-Event-ID attaches to that run (a stream resumes
 * after it, JSON gets the envelope); an Idempotency-Key that names a run answers with it (README "Safe retries"). Refusals carry
 * the envelope; on a stream the key failures arrive as `error` + `final` on HTTP 200 (README
 * "The API"). `headers` go on every answer; the RateLimit fields on every one past the key check. A credential refusal is returned without a
 * promise in between (the commonest refusal).
 */
export function runResponse(
  http: RunHttp,
  request: Request,
  mode: "json" | "stream",
  caller: Caller,
  endpoint: string,
  headers: Record<string, string>,
): Response | Promise<Response> {
  const requestId = crypto.randomUUID();
  const startedAt = performance.now();
  const h = { ...headers, "x-request-id": requestId };
  const sse = (retryMs: number, hh: Record<string, string>, body: Parameters<typeof sseResponse>[0]) =>
    sseResponse(body, { keepAliveMs: http.keepAliveMs, retryMs, requestSignal: request.signal, headers: hh });

  const refuse = (thrown: unknown): Response => {
    const e = asUnavailable(thrown);
    let err = e as AppError;
    if (!isAppError(e)) {
      http.logger.error("query_failed", { request_id: requestId, error: String(e) });
      err = new AppError("internal_error", "internal error", 500);
    }
    const env = refusalEnvelope(requestId, startedAt, [{ code: err.code, message: err.message }]);
    if (mode === "stream" && KEY_FAILURE_CODES.has(err.code)) {
      return sse(REFUSAL_RETRY_MS, h, async (send) => {
        send({ event: "error", data: { code: err.code, message: err.message } }, eventId(requestId, 1));
        send({ event: "final", data: env }, eventId(requestId, 2));
      });
    }
    return json(env, err.status, err.headers ? { ...h, ...err.headers } : h);
  };

  /** The run's answer from event `after` on; X-Request-Id names the run followed. */
  const respond = (follow: Follow, after: number, extra: Record<string, string> = {}): Response | Promise<Response> => {
    // Runs hold the connection for minutes; our own deadline (RUN_TIMEOUT_MS) bounds them.
    holdConnection(request);
    const hh = { ...h, "x-request-id": follow.runId, ...extra };
    if (mode === "json") return follow.result().then((env) => json(env, 200, hh));
    // Nothing left of an ended run: 204 tells EventSource-style clients to stop reconnecting.
    if (!follow.hasAfter(after)) return new Response(null, { status: 204, headers: hh });
    return sse(RETRY_MS, hh, (send, gone) =>
      follow.stream(after, (s) => send(s.event, eventId(follow.runId, s.seq)), gone),
    );
  };

  const answer = async (who: Identity): Promise<Response> => {
    // On /api/query too: a JSON client sending it wants that run's envelope, not a new charged run.
    const last = lastEventIdOf(request.headers);
    if (last) {
      const follow = await http.runs.attach(who, last.requestId);
      if (!follow) throw new AppError("run_not_found", "Last-Event-ID names no run of this account");
      return respond(follow, last.seq, mode === "json" ? { "idempotent-replayed": "true" } : {});
    }
    const key = idempotencyKeyOf(request.headers);
    const admission = await http.runs.admit(
      who,
      () => readQueryBody(request, http.bodyTimeoutMs),
      endpoint,
      requestId,
      startedAt,
      key,
    );
    if ("existing" in admission) return respond(admission.existing, 0, { "idempotent-replayed": "true" });
    // A stream's first event is what a crowd waits for: the runs under way let it go first
    // (src/util/turns.ts). Threat: callers holding every run back for free — so only a run the
    // allowance accepted counts; refusals (429, 422, 400), resumes and replays charge nothing
    // and count nothing. A JSON caller's answer is its run's end, which waiting gains nothing.
    if (mode === "stream") (http.arrivals ?? processTurns).arrived();
    // The request's server span is the run's parent (traces on; README "Traces").
    const parent = requestSpan(request);
    return respond(http.runs.start(parent ? { ...admission.run, parent } : admission.run), 0);
  };

  // Every answer a key's account reaches carries its allowance (README "The API": RateLimit);
  // a refused key names no account to report on.
  const answered = (who: Identity): Promise<Response> => {
    const res = answer(who).catch(refuse);
    return caller.kind === "key" ? res.then((r) => withRateLimit(http.runs, who, r, http.logger)) : res;
  };
  let who: Identity | Promise<Identity>;
  try {
    who = http.runs.authenticate(caller);
  } catch (e) {
    return refuse(e);
  }
  return who instanceof Promise ? who.then(answered, refuse) : answered(who);
}
